import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { bookingRequestSchema, quoteOf } from '@/domain/booking-request';
import { computePrice, type PricingRows } from '@/domain/pricing';

import { emptyDraft, type BookingDraft } from '@/features/booking/draft';
import {
  createRequestOfDraft,
  draftPeriod,
  priceOfDraft,
  quoteOfDraft,
  requestOfDraft,
} from '@/features/booking/draft-request';

const CAR = '11111111-1111-4111-8111-111111111111';
const AGENCY = '22222222-2222-4222-8222-222222222222';
const AIRPORT = '33333333-3333-4333-8333-333333333333';
const ID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1';

const rows: PricingRows = {
  cars: [{ id: CAR, daily_rate_dzd: 6000, deposit_dzd: 40000 }],
  locations: [
    { id: AGENCY, delivery_fee_dzd: 0 },
    { id: AIRPORT, delivery_fee_dzd: 2500 },
  ],
  extras: [
    { code: 'gps', price_dzd: 300, per: 'day', active: true },
    { code: 'full_tank', price_dzd: 7000, per: 'rental', active: true },
  ],
  insurance: [
    { code: 'civil_liability', price_dzd_per_day: 0, included: true, active: true },
    { code: 'tires', price_dzd_per_day: 200, included: false, active: true },
  ],
  settings: { driver_per_day_dzd: 3000 },
};

/** A draft that went through every step. */
function complete(overrides: Partial<BookingDraft> = {}): BookingDraft {
  return {
    ...emptyDraft(ID, 'KR-7K3M-9QXD'),
    car_id: CAR,
    start_date: '2027-03-12',
    start_time: '10:00',
    end_date: '2027-03-15',
    end_time: '09:30',
    pickup_location_id: AIRPORT,
    driver_option: 'self',
    licence: {
      id: 'f1',
      name: 'permis.pdf',
      type: 'application/pdf',
      size: 1000,
      bucket: 'licenses',
      path: `${ID}/licence-f1.pdf`,
    },
    guest_name: '  Amina Benali ',
    guest_phone: '+213 555-12.34.56',
    guest_email: ' amina@example.com ',
    ...overrides,
  };
}

describe('the draft as a request', () => {
  it('reads the dates as Algiers time and keeps only a return after the pickup', () => {
    expect(draftPeriod(complete())).toEqual({
      start: '2027-03-12T10:00:00+01:00',
      end: '2027-03-15T09:30:00+01:00',
    });
    expect(draftPeriod(complete({ end_date: '2027-03-12', end_time: '10:00' }))).toBeNull();
    expect(draftPeriod(complete({ start_date: '2027-02-30' }))).toBeNull();
  });

  it('resolves the drop-off place, the driver and the options once', () => {
    const same = requestOfDraft(complete({ dropoff_location_id: AGENCY }));
    expect(same.dropoff_location_id).toBe(AIRPORT);
    const other = requestOfDraft(complete({ dropoff_same: false, dropoff_location_id: AGENCY }));
    expect(other.dropoff_location_id).toBe(AGENCY);
    // Not chosen yet: no place, and no driver charged.
    const early = requestOfDraft({ ...emptyDraft(ID, 'KR-7K3M-9QXD'), car_id: CAR });
    expect(early).toMatchObject({
      pickup_location_id: null,
      dropoff_location_id: null,
      driver_option: 'self',
      start_at: null,
    });
    expect(requestOfDraft(complete({ driver_option: 'provided' })).driver_option).toBe('provided');
    const options = requestOfDraft(complete({ extras: ['gps', 'gps'], insurance: ['tires'] }));
    expect(options.extras).toEqual(['gps']);
    expect(options.insurance).toEqual(['civil_liability', 'tires']);
  });

  it('has no quote before a car and valid dates', () => {
    expect(quoteOfDraft(complete({ car_id: '' }))).toBeNull();
    expect(quoteOfDraft(complete({ end_date: '' }))).toBeNull();
    expect(priceOfDraft(complete({ car_id: '' }), rows)).toBeNull();
  });

  it('builds a create request the schema accepts, with the guest contact cleaned', () => {
    const request = createRequestOfDraft(complete({ additional_requests: '  ' }), true, 'ar');
    expect(bookingRequestSchema.parse(request)).toEqual(request);
    expect(request).toMatchObject({
      guest_name: 'Amina Benali',
      guest_phone: '+213555123456',
      guest_email: 'amina@example.com',
      additional_requests: null,
      flight_document_path: null,
      license_path: `${ID}/licence-f1.pdf`,
      locale: 'ar',
    });
    const signedIn = createRequestOfDraft(complete(), false, 'fr');
    expect(signedIn).toMatchObject({ guest_name: null, guest_phone: null, guest_email: null });
  });

  it('refuses to build a request from an incomplete draft', () => {
    expect(() => createRequestOfDraft(complete({ licence: null }), true, 'fr')).toThrow();
    expect(() => createRequestOfDraft(complete({ driver_option: '' }), true, 'fr')).toThrow();
    expect(() => createRequestOfDraft(complete({ pickup_location_id: '' }), true, 'fr')).toThrow();
  });

  it('quotes, prices and books the same request, whatever was chosen', () => {
    const choice = fc.record({
      dropoff_same: fc.boolean(),
      dropoff_location_id: fc.constantFrom(AGENCY, AIRPORT),
      driver_option: fc.constantFrom('self' as const, 'provided' as const),
      extras: fc.subarray(['gps', 'full_tank', 'gps']),
      insurance: fc.subarray(['tires', 'civil_liability']),
      end_date: fc.constantFrom('2027-03-13', '2027-03-20', '2027-04-30'),
    });
    fc.assert(
      fc.property(choice, (picked) => {
        const draft = complete(picked);
        const created = createRequestOfDraft(draft, true, 'en');
        expect(quoteOfDraft(draft)).toEqual(quoteOf(created));
        const places = (id: string) => rows.locations.find((l) => l.id === id)!;
        expect(priceOfDraft(draft, rows)).toEqual(
          computePrice(created, {
            car: rows.cars[0]!,
            pickup: places(created.pickup_location_id),
            dropoff: places(created.dropoff_location_id),
            extras: rows.extras,
            insurance: rows.insurance,
            settings: rows.settings!,
          }),
        );
      }),
    );
  });
});
