import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { PriceBreakdown } from '@/domain/rows';

import type { QuoteState } from '@/features/booking/booking-wizard.machine';
import { PriceCheck } from '@/features/booking/steps/price-check';

const price: PriceBreakdown = {
  days: 2,
  base: 10_000,
  extras_total: 0,
  insurance_total: 0,
  driver_total: 0,
  pickup_fee: 0,
  dropoff_fee: 0,
  subtotal: 10_000,
  deposit: 40_000,
  total: 10_000,
  currency: 'DZD',
};

const wrap = (node: ReactNode) => <I18nProvider i18n={i18n}>{node}</I18nProvider>;
const check = (quote: QuoteState, server: PriceBreakdown | null, online = true) => (
  <PriceCheck local={price} server={server} quote={quote} online={online} />
);

/** The messages in the block, seen or not, in order (their text). */
const messages = (container: HTMLElement) =>
  Array.from(container.firstElementChild!.children).map((cell) => ({
    hidden: cell.getAttribute('aria-hidden') === 'true' && cell.classList.contains('invisible'),
    text: cell.textContent,
  }));

beforeEach(() => {
  i18n.load('fr', {});
  i18n.activate('fr');
});
afterEach(cleanup);

describe('PriceCheck', () => {
  it('online, holds the space of every answer while checking, so the answer moves nothing below it', () => {
    const { container, rerender } = render(wrap(check('checking', null)));
    const checking = messages(container);
    expect(checking.filter((m) => !m.hidden).map((m) => m.text)).toEqual([
      'Vérification du prix auprès du serveur…',
    ]);
    expect(checking.filter((m) => m.hidden)).toHaveLength(3);
    expect(screen.getAllByRole('status')).toHaveLength(1);

    rerender(wrap(check('confirmed', price)));
    const confirmed = messages(container);
    expect(confirmed.filter((m) => !m.hidden).map((m) => m.text)).toEqual([
      'Prix vérifié auprès du serveur. La disponibilité de la voiture est vérifiée à l’envoi.',
    ]);
    // The same four messages before and after: the block's height is the tallest one's.
    expect(confirmed.map((m) => m.text).sort()).toEqual(checking.map((m) => m.text).sort());
    // Only the message shown is announced and can be found by its test id.
    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(screen.getAllByTestId('price-confirmed')).toHaveLength(1);
    expect(screen.queryByTestId('price-changed')).toBeNull();
  });

  it('says a changed price with both totals', () => {
    render(wrap(check('confirmed', { ...price, total: 12_000 })));
    expect(screen.getByTestId('price-changed').textContent).toMatch(/12.000.*au lieu de.*10.000/);
  });

  it('offline, shows the device’s estimate alone', () => {
    const { container } = render(wrap(check('idle', null, false)));
    expect(container.querySelectorAll('[aria-hidden="true"].invisible')).toHaveLength(0);
    expect(container.textContent).toMatch(/^Hors ligne : prix calculé sur cet appareil/);
  });
});
