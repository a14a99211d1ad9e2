import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Location } from '@/domain/rows';
import type { BookingCatalogue } from '@/features/booking/booking-store';
import { emptyDraft } from '@/features/booking/draft';
import { LocationStep } from '@/features/booking/steps/location-step';
import { validationMessages } from '@/features/booking/validation-messages';

const place: Location = {
  id: 'place-alg',
  kind: 'airport',
  iata: 'ALG',
  name: { fr: 'Aéroport d’Alger', en: 'Algiers airport', ar: 'مطار الجزائر' },
  delivery_fee_dzd: 0,
  active: true,
  updated_at: '2026-11-01T00:00:00Z',
};

const catalogue = {
  cars: [],
  locations: [place],
  extras: [],
  insurance: [],
  busy: [],
  settings: null,
} as unknown as BookingCatalogue;

beforeEach(() => {
  i18n.load('fr', {});
  i18n.activate('fr');
});
afterEach(cleanup);

describe('LocationStep', () => {
  it('"Next" tapped while the licence is still being prepared waits for it, then goes on', async () => {
    const onNext = vi.fn();
    const draft = {
      ...emptyDraft(crypto.randomUUID(), 'KR-AAAA-BBBB', {
        start_date: '2027-03-12',
        end_date: '2027-03-15',
        pickup_location_id: place.id,
      }),
      driver_option: 'self' as const,
    };
    render(
      <I18nProvider i18n={i18n}>
        <LocationStep
          draft={draft}
          catalogue={catalogue}
          messages={validationMessages(i18n)}
          onChange={() => {}}
          onNext={onNext}
          onBack={() => {}}
        />
      </I18nProvider>,
    );
    fireEvent.change(screen.getByLabelText('Lieu de prise en charge'), {
      target: { value: place.id },
    });
    const licence = new File(['%PDF-1.4\n%%EOF\n'], 'permis.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByTestId('licence-input'), { target: { files: [licence] } });
    // At once, as a thumb does: the file is read, checked by its bytes and saved on the device.
    fireEvent.click(screen.getByTestId('wizard-next'));
    // Nothing seems to happen while a photo converts: a second tap must not skip step 4.
    fireEvent.click(screen.getByTestId('wizard-next'));

    await waitFor(() => expect(onNext).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(onNext).toHaveBeenCalledTimes(1);
    expect(onNext.mock.calls[0]![0]).toMatchObject({
      pickup_location_id: place.id,
      licence: { name: 'permis.pdf', type: 'application/pdf' },
    });
    // No "required" flashed under the field meanwhile and left behind.
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
