import { setupI18n, type Messages } from '@lingui/core';
import { beforeAll, describe, expect, it } from 'vitest';

import { basicsSchema } from '@/features/booking/basics.schema';
import { confirmSchema } from '@/features/booking/confirm.schema';
import type { DraftFile } from '@/features/booking/draft';
import { locationSchema } from '@/features/booking/location.schema';
import { priceReviewSchema } from '@/features/booking/price-review.schema';
import { servicesSchema } from '@/features/booking/services.schema';
import {
  validationMessages,
  type ValidationMessages,
} from '@/features/booking/validation-messages';

const locales = ['fr', 'en', 'ar'] as const;
/** The catalogs as written (the compiled ones fall back to French for a missing message). */
const rawCatalogs = import.meta.glob<string>('../../locales/*/booking.po', {
  query: '?raw',
  import: 'default',
  eager: true,
});
type L = (typeof locales)[number];
const catalogs = {} as Record<L, Messages>;
const m = {} as Record<L, ValidationMessages>;

beforeAll(async () => {
  for (const locale of locales) {
    catalogs[locale] = (
      (await import(`../../locales/${locale}/booking.po`)) as { messages: Messages }
    ).messages;
    const i18n = setupI18n({ locale, messages: { [locale]: catalogs[locale] } });
    m[locale] = validationMessages(i18n);
  }
});

/** The first message for `path` when parsing `value`, or null when valid there. */
function messageAt(
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
  path: string,
): string | null {
  if (result.success) return null;
  return result.error?.issues.find((i) => i.path.join('.') === path)?.message ?? null;
}

const NOW = Date.parse('2030-01-01T09:00:00Z');
const now = () => NOW;

const basics = {
  car_id: 'car-1',
  start_date: '2030-01-10',
  start_time: '10:00',
  end_date: '2030-01-12',
  end_time: '10:00',
};

describe('messages in each language (docs/product.md §5)', () => {
  const expected: Record<L, Record<string, string>> = {
    fr: {
      required: 'Date de retour est obligatoire',
      email: 'Veuillez saisir une adresse e-mail valide',
      tooLarge: 'fichier trop volumineux',
      unsupported: 'type de fichier non pris en charge',
    },
    en: {
      required: 'Return date is required',
      email: 'Please enter a valid email address',
      tooLarge: 'file too large',
      unsupported: 'unsupported file type',
    },
    ar: {
      required: 'تاريخ الإرجاع مطلوب',
      email: 'يرجى إدخال عنوان بريد إلكتروني صالح',
      tooLarge: 'الملف كبير جدًا',
      unsupported: 'نوع الملف غير مدعوم',
    },
  };

  it.each(locales)('%s: required, email, file too large, unsupported file type', (locale) => {
    const msgs = m[locale];
    expect(
      messageAt(basicsSchema(msgs, now).safeParse({ ...basics, end_date: '' }), 'end_date'),
    ).toBe(expected[locale].required);
    expect(
      messageAt(
        servicesSchema(msgs, { isGuest: true }).safeParse({
          extras: [],
          insurance: [],
          additional_requests: '',
          guest_name: 'A',
          guest_phone: '+213555123456',
          guest_email: 'not-an-email',
        }),
        'guest_email',
      ),
    ).toBe(expected[locale].email);
    expect(msgs.fileTooLarge).toBe(expected[locale].tooLarge);
    expect(msgs.unsupportedFileType).toBe(expected[locale].unsupported);
  });

  it.each(['en', 'ar'] as const)('%s translates every booking message', (locale) => {
    const po = rawCatalogs[`../../locales/${locale}/booking.po`] ?? '';
    const entries = [...po.matchAll(/msgid "(.*)"\nmsgstr "(.*)"/g)].filter(([, id]) => id !== '');
    expect(entries.length).toBeGreaterThan(100);
    const untranslated = entries.filter(([, , str]) => str === '').map(([, id]) => id);
    expect(untranslated).toEqual([]);
  });

  it('gives a phone example with a country code', () => {
    expect(m.en.invalidPhone).toContain('+33612345678');
    expect(m.ar.invalidPhone).toContain('+33612345678');
  });
});

describe('basicsSchema (step 1)', () => {
  const parse = (v: object) => basicsSchema(m.en, now).safeParse({ ...basics, ...v });

  it('accepts a valid rental', () => {
    expect(parse({}).success).toBe(true);
  });

  it('checks the dates with no car chosen yet, at the first submit', () => {
    const result = parse({ car_id: '', end_date: '2025-12-31' });
    expect(messageAt(result, 'car_id')).toBe('Car is required');
    expect(messageAt(result, 'end_date')).toBe(m.en.returnDateBeforePickup);
  });

  it.each([
    ['car_id', 'Car is required'],
    ['start_date', 'Pickup date is required'],
    ['start_time', 'Pickup time is required'],
    ['end_date', 'Return date is required'],
    ['end_time', 'Return time is required'],
  ])('requires %s', (field, message) => {
    expect(messageAt(parse({ [field]: '' }), field)).toBe(message);
  });

  it('refuses dates and times that do not exist', () => {
    expect(messageAt(parse({ start_date: '2030-02-30' }), 'start_date')).toBe(m.en.invalidDate);
    expect(messageAt(parse({ end_date: '12/01/2030' }), 'end_date')).toBe(m.en.invalidDate);
    expect(messageAt(parse({ start_time: '25:00' }), 'start_time')).toBe(m.en.invalidTime);
  });

  it('wants the pickup in the future (device clock, Algiers time)', () => {
    // 10:00 in Algiers is 09:00 UTC: exactly now, so not in the future.
    expect(messageAt(parse({ start_date: '2030-01-01', start_time: '10:00' }), 'start_date')).toBe(
      m.en.pickupInPast,
    );
    expect(parse({ start_date: '2030-01-01', start_time: '10:01' }).success).toBe(true);
  });

  it('wants the return date after the pickup date, and the time after on the same day', () => {
    expect(messageAt(parse({ end_date: '2030-01-09' }), 'end_date')).toBe(
      m.en.returnDateBeforePickup,
    );
    expect(messageAt(parse({ end_date: '2030-01-10', end_time: '10:00' }), 'end_time')).toBe(
      m.en.returnTimeBeforePickup,
    );
    expect(parse({ end_date: '2030-01-10', end_time: '12:00' }).success).toBe(true);
  });

  it('allows at most 90 days', () => {
    expect(parse({ end_date: '2030-04-10', end_time: '10:00' }).success).toBe(true);
    expect(messageAt(parse({ end_date: '2030-04-10', end_time: '10:01' }), 'end_date')).toBe(
      m.en.rentalTooLong,
    );
  });

  it('starts at most the synced horizon ahead, 365 days until synced (as create_booking)', () => {
    const at = (date: string, time: string, horizon?: number) =>
      basicsSchema(m.en, now, horizon).safeParse({
        ...basics,
        start_date: date,
        start_time: time,
        end_date: '2031-01-20',
        end_time: '10:00',
      });
    // NOW is 2030-01-01 10:00 in Algiers; 365 days later is 2031-01-01 10:00.
    expect(at('2031-01-01', '10:00').success).toBe(true);
    expect(messageAt(at('2031-01-01', '10:01'), 'start_date')).toBe(m.en.pickupTooFarAhead(365));
    expect(m.en.pickupTooFarAhead(365)).toBe('Pickup can be at most 365 days ahead');
    expect(messageAt(at('2030-07-01', '10:00', 180), 'start_date')).toBe(
      m.en.pickupTooFarAhead(180),
    );
    expect(m.ar.pickupTooFarAhead(180)).toContain('180');
  });
});

describe('priceReviewSchema (step 2)', () => {
  it('needs a computed price', () => {
    const s = priceReviewSchema(m.en);
    expect(messageAt(s.safeParse({ price: null }), 'price')).toBe(m.en.priceUnavailable);
    expect(
      s.safeParse({
        price: {
          days: 1,
          base: 1,
          extras_total: 0,
          insurance_total: 0,
          driver_total: 0,
          pickup_fee: 0,
          dropoff_fee: 0,
          subtotal: 1,
          deposit: 0,
          total: 1,
          currency: 'DZD',
        },
      }).success,
    ).toBe(true);
  });
});

describe('locationSchema (step 3)', () => {
  const file: DraftFile = {
    id: 'f',
    name: 'p.pdf',
    type: 'application/pdf',
    size: 1000,
    bucket: 'licenses',
    path: 'b/licence-f.pdf',
  };
  const valid = {
    pickup_location_id: 'loc',
    dropoff_same: true,
    dropoff_location_id: '',
    driver_option: 'self',
    licence: file,
    from_abroad: false,
    flight_document: null,
  };
  const parse = (v: object) => locationSchema(m.en).safeParse({ ...valid, ...v });

  it('accepts a valid step', () => {
    expect(parse({}).success).toBe(true);
    expect(parse({ driver_option: 'provided' }).success).toBe(true);
  });

  it('requires the pickup place, and the dropoff place when it differs', () => {
    expect(messageAt(parse({ pickup_location_id: '' }), 'pickup_location_id')).toBe(
      'Pickup location is required',
    );
    expect(messageAt(parse({ dropoff_same: false }), 'dropoff_location_id')).toBe(
      'Return location is required',
    );
    expect(parse({ dropoff_same: false, dropoff_location_id: 'loc2' }).success).toBe(true);
  });

  it('requires the driver option', () => {
    expect(messageAt(parse({ driver_option: '' }), 'driver_option')).toBe(
      'Driver option is required',
    );
  });

  it('requires the licence, PDF or image, at most 5 MB', () => {
    expect(messageAt(parse({ licence: null }), 'licence')).toBe("Driver's licence is required");
    expect(messageAt(parse({ licence: { ...file, size: 5 * 1024 * 1024 + 1 } }), 'licence')).toBe(
      'file too large',
    );
    expect(messageAt(parse({ licence: { ...file, type: 'application/zip' } }), 'licence')).toBe(
      'unsupported file type',
    );
    expect(parse({ licence: { ...file, type: 'image/webp', size: 5 * 1024 * 1024 } }).success).toBe(
      true,
    );
  });

  it('reports every missing field at the first submit, the licence too (issue 13)', () => {
    // An empty step 3: the licence error came only once the other fields were valid.
    const empty = parse({
      pickup_location_id: '',
      driver_option: undefined,
      licence: null,
      from_abroad: true,
      dropoff_same: false,
    });
    expect(messageAt(empty, 'pickup_location_id')).toBe('Pickup location is required');
    expect(messageAt(empty, 'driver_option')).toBe('Driver option is required');
    expect(messageAt(empty, 'licence')).toBe("Driver's licence is required");
    expect(messageAt(empty, 'dropoff_location_id')).toBe('Return location is required');
    expect(messageAt(empty, 'flight_document')).toBe('Flight documents is required');
  });

  it('requires flight documents when coming from abroad', () => {
    expect(messageAt(parse({ from_abroad: true }), 'flight_document')).toBe(
      'Flight documents is required',
    );
    expect(
      parse({
        from_abroad: true,
        flight_document: { ...file, bucket: 'flight-documents', path: 'b/flight-f.pdf' },
      }).success,
    ).toBe(true);
  });
});

describe('servicesSchema (step 4)', () => {
  const valid = {
    extras: ['baby_seat', 'gps'],
    insurance: ['civil_liability', 'tires'],
    additional_requests: '',
    guest_name: 'Amina Benali',
    guest_phone: '+213 555 12 34 56',
    guest_email: 'amina@example.com',
  };
  const parse = (v: object, isGuest = true) =>
    servicesSchema(m.en, { isGuest }).safeParse({ ...valid, ...v });

  it('accepts a valid step', () => {
    expect(parse({}).success).toBe(true);
  });

  it('takes only the six extras and six insurance options', () => {
    expect(parse({ extras: ['jetpack'] }).success).toBe(false);
    expect(parse({ insurance: ['meteor'] }).success).toBe(false);
  });

  it('limits additional requests to 500 characters', () => {
    expect(parse({ additional_requests: 'x'.repeat(500) }).success).toBe(true);
    expect(messageAt(parse({ additional_requests: 'x'.repeat(501) }), 'additional_requests')).toBe(
      m.en.tooLong(500),
    );
  });

  it('shows the contact errors with a too long request, at the first submit', () => {
    const result = parse({ additional_requests: 'x'.repeat(501), guest_email: '' });
    expect(messageAt(result, 'additional_requests')).toBe(m.en.tooLong(500));
    expect(messageAt(result, 'guest_email')).toBe('Email address is required');
  });

  it('requires the guest contact when signed out', () => {
    expect(messageAt(parse({ guest_name: ' ' }), 'guest_name')).toBe('Full name is required');
    expect(messageAt(parse({ guest_phone: '' }), 'guest_phone')).toBe('Phone number is required');
    expect(messageAt(parse({ guest_email: '' }), 'guest_email')).toBe('Email address is required');
  });

  it('wants a phone with its country code', () => {
    for (const bad of ['055512345', '+12', '+2135551234567890', '+21355512345a', '555-1234']) {
      expect(messageAt(parse({ guest_phone: bad }), 'guest_phone')).toBe(m.en.invalidPhone);
    }
    for (const good of ['+33612345678', '+213555123456', '+1 (415) 555-2671', '0555 12 34 56']) {
      expect(parse({ guest_phone: good }).success).toBe(true);
    }
  });

  it('wants a valid email', () => {
    for (const bad of ['amina', 'amina@', '@example.com', 'a b@example.com']) {
      expect(messageAt(parse({ guest_email: bad }), 'guest_email')).toBe(
        'Please enter a valid email address',
      );
    }
  });

  it('asks nothing of a signed-in customer', () => {
    expect(parse({ guest_name: '', guest_phone: '', guest_email: '' }, false).success).toBe(true);
  });
});

describe('confirmSchema (step 5)', () => {
  it('needs cash and the acknowledged guarantee', () => {
    const s = confirmSchema(m.en);
    expect(s.safeParse({ payment_method: 'cash', accept_guarantee: true }).success).toBe(true);
    expect(
      messageAt(
        s.safeParse({ payment_method: 'cash', accept_guarantee: false }),
        'accept_guarantee',
      ),
    ).toBe(m.en.acceptGuarantee);
    expect(s.safeParse({ payment_method: 'card', accept_guarantee: true }).success).toBe(false);
  });
});
