import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { BookingCatalogue } from '@/features/booking/booking-store';
import { emptyDraft } from '@/features/booking/draft';
import { BasicsStep } from '@/features/booking/steps/basics-step';
import { validationMessages } from '@/features/booking/validation-messages';

const car = (id: string, name: string) => ({
  id,
  name,
  year: 2024,
  fuel: 'diesel',
  transmission: 'manual',
  daily_rate_dzd: 5000,
  deposit_dzd: 30000,
  active: true,
});

const catalogueOf = (cars: ReturnType<typeof car>[]) =>
  ({
    cars,
    locations: [],
    extras: [],
    insurance: [],
    busy: [],
    settings: null,
  }) as unknown as BookingCatalogue;

beforeEach(() => {
  i18n.load('fr', {});
  i18n.activate('fr');
});
afterEach(cleanup);

const draft = emptyDraft('booking-1', 'KR-AAAA-BBBB', { car_id: 'car-late' });
const step = (catalogue: BookingCatalogue) => (
  <I18nProvider i18n={i18n}>
    <BasicsStep
      draft={draft}
      catalogue={catalogue}
      messages={validationMessages(i18n)}
      onChange={() => {}}
      onNext={() => {}}
    />
  </I18nProvider>
);

describe('BasicsStep', () => {
  it("shows the draft's car once the catalogue has it, even when it arrives after the form", () => {
    // The catalogue's first page only: the linked car is not in it yet.
    const { rerender } = render(step(catalogueOf([car('car-early', 'Dacia Logan')])));
    const select = screen.getByLabelText('Voiture') as HTMLSelectElement;
    expect(select.value).toBe('');

    rerender(
      step(catalogueOf([car('car-early', 'Dacia Logan'), car('car-late', 'Renault Clio 5')])),
    );
    expect(select.value).toBe('car-late');
    expect(select.selectedOptions[0]?.textContent).toMatch(/Renault Clio 5/);
  });

  it('keeps the car the traveller chose meanwhile', () => {
    const { rerender } = render(step(catalogueOf([car('car-early', 'Dacia Logan')])));
    const select = screen.getByLabelText('Voiture') as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'car-early' } });

    rerender(
      step(catalogueOf([car('car-early', 'Dacia Logan'), car('car-late', 'Renault Clio 5')])),
    );
    expect(select.value).toBe('car-early');
  });
});
