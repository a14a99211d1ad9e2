/**
 * One home per limit (docs/database.md, "Where a rule lives"): src/domain/limits.ts for the app,
 * `internal.app_limit(name)` for the database, the same numbers. For each limit the maximum is
 * accepted and one past it refused: by the RPC or auth path a client takes, by the table's
 * constraint (a row written past the functions), and by the app's zod schemas.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { bookingRequestSchema } from '../../src/domain/booking-request.ts';
import { REASON_MAX } from '../../src/domain/lifecycle.ts';
import { LIMITS, SQL_LIMIT_NAMES, type LimitName } from '../../src/domain/limits.ts';
import {
  ADDRESS_MAX,
  EMAIL_MAX,
  MAX_AGE,
  MIN_AGE,
  NAME_MAX,
  signUpSchema,
} from '../../src/features/auth/auth.schema.ts';
import { MAX_CAR_PICTURES } from '../../src/domain/car-pictures.ts';
import { MAX_RENTAL_DAYS } from '../../src/features/booking/basics.schema.ts';
import {
  MAX_ADDITIONAL_REQUESTS,
  MAX_GUEST_NAME,
} from '../../src/features/booking/services.schema.ts';
import { MAX_UPLOAD_BYTES } from '../../src/infra/image-prepare.ts';
import { sql, testStack } from '../support/clients.ts';
import {
  algiersAt,
  bookingWithLicence,
  createBooking,
  draft,
  expectCode,
  guestContact,
  newCar,
  newCustomer,
  visitor,
  type Booking,
} from '../support/fixtures.ts';

const a = (n: number) => 'a'.repeat(n);
/** An address of exactly `n` characters. */
const emailOf = (n: number) => `${a(n - '@kiraa.test'.length)}@kiraa.test`;

describe('one number per limit', () => {
  it('gives SQL the numbers of src/domain/limits.ts', async () => {
    for (const [key, name] of Object.entries(SQL_LIMIT_NAMES)) {
      const [row] = await sql<{ value: number }>('select internal.app_limit($1) as value', [name]);
      expect(row!.value, name).toBe(LIMITS[key as LimitName]);
    }
    await expect(sql("select internal.app_limit('nonsense')")).rejects.toMatchObject({
      code: '22023',
    });
  });

  it('has the screens and schemas read the same numbers', () => {
    expect([NAME_MAX, MAX_GUEST_NAME]).toEqual([LIMITS.name, LIMITS.name]);
    expect([MAX_ADDITIONAL_REQUESTS, REASON_MAX]).toEqual([LIMITS.text, LIMITS.text]);
    expect([ADDRESS_MAX, EMAIL_MAX, MIN_AGE, MAX_AGE]).toEqual([
      LIMITS.address,
      LIMITS.email,
      LIMITS.ageMin,
      LIMITS.ageMax,
    ]);
    expect(MAX_RENTAL_DAYS).toBe(LIMITS.rentalDays);
    expect(MAX_UPLOAD_BYTES).toBe(LIMITS.uploadBytes);
    expect(MAX_CAR_PICTURES).toBe(LIMITS.carPictures);
  });

  it('holds the buckets to the upload limit', async () => {
    const rows = await sql<{ limit: string }>(
      "select file_size_limit::text as limit from storage.buckets where id in ('licenses', 'flight-documents', 'cars', 'handovers')",
    );
    expect(rows.map((r) => Number(r.limit))).toEqual([
      LIMITS.uploadBytes,
      LIMITS.uploadBytes,
      LIMITS.uploadBytes,
      LIMITS.uploadBytes,
    ]);
  });
});

describe('zod schemas: the maximum accepted, one past it refused', () => {
  const signUp = {
    fullName: 'Lina Bouzid',
    email: 'lina@kiraa.test',
    phone: '+213555000111',
    age: '30',
    address: '1 rue Didouche Mourad, Alger',
    password: 'Motdepasse1!',
    confirmPassword: 'Motdepasse1!',
  };
  const issues = (values: Record<string, string>) =>
    signUpSchema.safeParse({ ...signUp, ...values }).error?.issues.map((i) => i.message) ?? [];

  it('sign-up: name, address, e-mail, age', () => {
    expect(issues({ fullName: a(LIMITS.name) })).toEqual([]);
    expect(issues({ fullName: a(LIMITS.name + 1) })).toEqual(['fullName.max']);
    expect(issues({ address: a(LIMITS.address) })).toEqual([]);
    expect(issues({ address: a(LIMITS.address + 1) })).toEqual(['address.max']);
    expect(issues({ email: emailOf(LIMITS.email) })).toEqual([]);
    expect(issues({ email: emailOf(LIMITS.email + 1) })).toContain('email.max');
    expect(issues({ age: String(LIMITS.ageMax) })).toEqual([]);
    expect(issues({ age: String(LIMITS.ageMax + 1) })).toEqual(['age.max']);
    expect(issues({ age: String(LIMITS.ageMin) })).toEqual([]);
    expect(issues({ age: String(LIMITS.ageMin - 1) })).toEqual(['age.min']);
  });

  it('the booking request: additional requests', () => {
    const request = { ...draft(crypto.randomUUID()), ...guestContact(), locale: 'fr' };
    const parse = (text: string) =>
      bookingRequestSchema.safeParse({
        ...request,
        flight_document_path: null,
        payment_method: 'cash',
        additional_requests: text,
      }).success;
    expect(parse(a(LIMITS.text))).toBe(true);
    expect(parse(a(LIMITS.text + 1))).toBe(false);
  });
});

describe('SQL: the maximum accepted, one past it refused', () => {
  let db: pg.Client;
  beforeAll(async () => {
    db = new pg.Client({ connectionString: testStack().dbUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
  });

  /** Runs `statement` on a row and undoes it; the SQLSTATE and constraint it was refused with. */
  async function tryUpdate(
    statement: string,
    params: unknown[],
  ): Promise<{ code?: string; constraint?: string } | null> {
    await db.query('begin');
    try {
      // Past the triggers (as a faulty function or a hand-written fix would be): the table's own
      // constraint must still hold.
      await db.query('set local session_replication_role = replica');
      await db.query(statement, params);
      return null;
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      return { code, constraint };
    } finally {
      await db.query('rollback');
    }
  }

  it('profile checks: name, address, age (the sign-up hook and profile trigger)', async () => {
    const problem = async (field: string, value: unknown) =>
      (
        await sql<{ p: string | null }>('select internal.profile_field_problem($1, $2) as p', [
          { [field]: value },
          field,
        ])
      )[0]!.p;
    expect(await problem('name', a(LIMITS.name))).toBeNull();
    expect(await problem('name', a(LIMITS.name + 1))).toBe('too_long');
    expect(await problem('address', a(LIMITS.address))).toBeNull();
    expect(await problem('address', a(LIMITS.address + 1))).toBe('too_long');
    expect(await problem('age', LIMITS.ageMax)).toBeNull();
    expect(await problem('age', LIMITS.ageMax + 1)).toBe('too_old');
    expect(await problem('age', LIMITS.ageMin)).toBeNull();
    expect(await problem('age', LIMITS.ageMin - 1)).toBe('under_age');

    const customer = await newCustomer();
    const at = await customer.client.auth.updateUser({ data: { name: a(LIMITS.name) } });
    expect(at.error).toBeNull();
    const past = await customer.client.auth.updateUser({ data: { name: a(LIMITS.name + 1) } });
    expect(past.error).not.toBeNull();

    const profile = (column: string, value: unknown) =>
      tryUpdate(`update public.profiles set ${column} = $1 where id = $2`, [value, customer.id]);
    expect(await profile('full_name', a(LIMITS.name))).toBeNull();
    expect(await profile('full_name', a(LIMITS.name + 1))).toEqual({
      code: '23514',
      constraint: 'profiles_full_name_length',
    });
    expect(await profile('address', a(LIMITS.address))).toBeNull();
    expect(await profile('address', a(LIMITS.address + 1))).toEqual({
      code: '23514',
      constraint: 'profiles_address_length',
    });
    expect(await profile('age', LIMITS.ageMax)).toBeNull();
    expect(await profile('age', LIMITS.ageMax + 1)).toEqual({
      code: '23514',
      constraint: 'profiles_age_adult',
    });
    expect(await profile('age', LIMITS.ageMin - 1)).toEqual({
      code: '23514',
      constraint: 'profiles_age_adult',
    });
  });

  it('e-mail addresses', async () => {
    const mailable = async (address: string) =>
      (await sql<{ ok: boolean }>('select internal.is_mailable_address($1) as ok', [address]))[0]!
        .ok;
    expect(await mailable(emailOf(LIMITS.email))).toBe(true);
    expect(await mailable(emailOf(LIMITS.email + 1))).toBe(false);
  });

  it('a booking: guest name, additional requests, rental days, reason, guest e-mail', async () => {
    const car = await newCar();
    const guest = visitor();
    const start = algiersAt(20, 10);
    const end = new Date(Date.parse(start) + LIMITS.rentalDays * 86_400_000).toISOString();
    // Every limit at its maximum, in one booking: accepted.
    const atMax = await bookingWithLicence(guest, car.id, {
      guest_name: a(LIMITS.name),
      additional_requests: a(LIMITS.text),
      start_at: start,
      end_at: end,
    });
    const created = await createBooking(guest, atMax);
    expect(created.error).toBeNull();
    const booking = created.data as Booking;

    // One past each, through create_booking: refused with its code.
    const refused = async (overrides: Record<string, unknown>, code: string) => {
      const client = visitor();
      const payload = await bookingWithLicence(client, car.id, {
        start_at: algiersAt(200, 10),
        end_at: algiersAt(201, 10),
        ...overrides,
      });
      expectCode((await createBooking(client, payload)).error, code);
    };
    await refused({ guest_name: a(LIMITS.name + 1) }, 'invalid_payload');
    await refused({ additional_requests: a(LIMITS.text + 1) }, 'additional_requests_too_long');
    await refused(
      {
        start_at: algiersAt(200, 10),
        end_at: new Date(
          Date.parse(algiersAt(200, 10)) + LIMITS.rentalDays * 86_400_000 + 60_000,
        ).toISOString(),
      },
      'rental_too_long',
    );

    // The table's constraints, on the same row.
    const row = (column: string, value: unknown) =>
      tryUpdate(`update public.bookings set ${column} = $1 where id = $2`, [value, booking.id]);
    expect(await row('guest_name', a(LIMITS.name + 1))).toEqual({
      code: '23514',
      constraint: 'bookings_guest_name_length',
    });
    expect(await row('additional_requests', a(LIMITS.text + 1))).toEqual({
      code: '23514',
      constraint: 'bookings_additional_requests_length',
    });
    expect(await row('status_reason', a(LIMITS.text))).toBeNull();
    expect(await row('status_reason', a(LIMITS.text + 1))).toEqual({
      code: '23514',
      constraint: 'bookings_status_reason_length',
    });
    const event = (value: string) =>
      tryUpdate('update public.booking_events set reason = $1 where booking_id = $2', [
        value,
        booking.id,
      ]);
    expect(await event(a(LIMITS.text))).toBeNull();
    expect(await event(a(LIMITS.text + 1))).toEqual({
      code: '23514',
      constraint: 'booking_events_reason_length',
    });
    expect(await row('guest_email', emailOf(LIMITS.email))).toBeNull();
    expect(await row('guest_email', emailOf(LIMITS.email + 1))).toEqual({
      code: '23514',
      constraint: 'bookings_guest_email_format',
    });
    expect(await row('end_at', new Date(Date.parse(end) + 60_000).toISOString())).toEqual({
      code: '23514',
      constraint: 'bookings_at_most_90_days',
    });
  });

  it('a blocked period: its reason', async () => {
    const car = await newCar();
    const [block] = await sql<{ id: string }>(
      `insert into public.car_blocks (car_id, start_at, end_at, reason)
       values ($1, now() + interval '400 days', now() + interval '401 days', 'garage') returning id`,
      [car.id],
    );
    const reason = (value: string) =>
      tryUpdate('update public.car_blocks set reason = $1 where id = $2', [value, block!.id]);
    expect(await reason(a(LIMITS.blockReason))).toBeNull();
    expect(await reason(a(LIMITS.blockReason + 1))).toEqual({
      code: '23514',
      constraint: 'car_blocks_reason_length',
    });
    // staff_block_car refuses one past it with its code (tests/api/car-blocks.test.ts).
    await sql('delete from public.car_blocks where id = $1', [block!.id]);
  });

  it("a car's mileage, daily rate and deposit (the fleet form's ranges)", async () => {
    const car = await newCar();
    const column = (name: string, value: number) =>
      tryUpdate(`update public.cars set ${name} = $1 where id = $2`, [value, car.id]);
    expect(await column('mileage_km', LIMITS.odometerKm)).toBeNull();
    expect(await column('mileage_km', LIMITS.odometerKm + 1)).toEqual({
      code: '23514',
      constraint: 'cars_mileage_range',
    });
    expect(await column('daily_rate_dzd', LIMITS.amountDzd)).toBeNull();
    expect(await column('daily_rate_dzd', LIMITS.amountDzd + 1)).toEqual({
      code: '23514',
      constraint: 'cars_daily_rate_range',
    });
    expect(await column('deposit_dzd', LIMITS.amountDzd)).toBeNull();
    expect(await column('deposit_dzd', LIMITS.amountDzd + 1)).toEqual({
      code: '23514',
      constraint: 'cars_deposit_range',
    });
    // The form refuses the same: carFormProblems (src/features/staff/fleet.test.ts).
  });

  it("a car's pictures: how many", async () => {
    const car = await newCar();
    const pictures = (n: number) =>
      Array.from({ length: n }, (_, i) => `/storage/v1/object/public/cars/${car.id}/p${i}.webp`);
    const images = (n: number) =>
      tryUpdate('update public.cars set images = $1 where id = $2', [pictures(n), car.id]);
    expect(await images(LIMITS.carPictures)).toBeNull();
    expect(await images(LIMITS.carPictures + 1)).toEqual({
      code: '23514',
      constraint: 'cars_images_paths',
    });
    // staff_set_car_pictures refuses one past it with its code (tests/api/car-pictures.test.ts).
  });
});
