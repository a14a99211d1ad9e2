/**
 * Pickup and return records (supabase/migrations/20261126560000_handovers.sql, docs/handovers.md):
 * staff at aal2 record them through staff_record_handover only, idempotent on the record's id;
 * the constraints and coded refusals; photos in the private `handovers` bucket, which must exist
 * before the record names them; the booking's customer reads their own records with the identity
 * document's number masked, nobody else's.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';

import { LIMITS } from '../../src/domain/limits.ts';
import { sql } from '../support/clients.ts';
import {
  adminClient,
  book,
  DEMO_ADMIN_EMAIL,
  DEMO_PASSWORD,
  expectCode,
  expectDenied,
  newCar,
  newCustomer,
  pngBlob,
  signedIn,
  staffMoves,
  visitor,
  type Customer,
} from '../support/fixtures.ts';

type Handover = {
  id: string;
  booking_id: string;
  kind: 'pickup' | 'return';
  odometer_km: number;
  fuel_eighths: number;
  id_document_type: string | null;
  id_document_number?: string | null;
  id_document_masked: string | null;
  deposit_dzd: number | null;
  deposit_status: string;
  deposit_kept_dzd: number | null;
  deposit_reason: string | null;
  photos: { angle: string; path: string }[];
  damage: { x: number; y: number; zone: string | null; note: string }[];
  created_at: string;
};

let admin: SupabaseClient;
let customer: Customer;
let other: Customer;

beforeAll(async () => {
  admin = await adminClient();
  customer = await newCustomer();
  other = await newCustomer();
});

/** A booking of `customer` moved by staff through `statuses`. */
async function bookingIn(statuses: string[]): Promise<string> {
  const car = await newCar();
  const booking = await book(customer.client, car.id, {}, true);
  if (statuses.length > 0) await staffMoves(booking.id, statuses);
  return booking.id;
}

async function uploadPhoto(bookingId: string, recordId: string, angle: string): Promise<string> {
  const path = `${bookingId}/${recordId}-${angle}.png`;
  const { error } = await admin.storage
    .from('handovers')
    .upload(path, pngBlob(), { contentType: 'image/png' });
  expect(error).toBeNull();
  return path;
}

function pickup(bookingId: string, overrides: Record<string, unknown> = {}) {
  return {
    id: crypto.randomUUID(),
    booking_id: bookingId,
    kind: 'pickup',
    odometer_km: 42_000,
    fuel_eighths: 8,
    id_document_type: 'national_id',
    id_document_number: 'ab 1234567',
    licence_seen: true,
    deposit_dzd: 30_000,
    photos: [],
    damage: [{ x: 12.5, y: 40, zone: 'front_left', note: 'Rayure pare-chocs' }],
    notes: null,
    recorded_at: new Date().toISOString(),
    ...overrides,
  };
}

function giveBack(bookingId: string, overrides: Record<string, unknown> = {}) {
  return {
    id: crypto.randomUUID(),
    booking_id: bookingId,
    kind: 'return',
    odometer_km: 42_350,
    fuel_eighths: 6,
    deposit_status: 'returned',
    photos: [],
    damage: [],
    recorded_at: new Date().toISOString(),
    ...overrides,
  };
}

const record = (client: SupabaseClient, p: Record<string, unknown>) =>
  client.rpc('staff_record_handover', { p });

describe('staff_record_handover', () => {
  it('records a pickup with its photos, answers a replay with the same record, and logs it once', async () => {
    const bookingId = await bookingIn(['reserved']);
    const p = pickup(bookingId);
    const photos = [
      { angle: 'front', path: await uploadPhoto(bookingId, p.id, 'front') },
      { angle: 'rear_left', path: await uploadPhoto(bookingId, p.id, 'rear_left') },
    ];
    const first = await record(admin, { ...p, photos });
    expect(first.error).toBeNull();
    const stored = first.data as Handover;
    expect(stored).toMatchObject({
      id: p.id,
      kind: 'pickup',
      odometer_km: 42_000,
      id_document_number: 'AB 1234567',
      id_document_masked: '•••••••567',
      deposit_dzd: 30_000,
      deposit_status: 'held',
      photos,
    });

    const replay = await record(admin, { ...p, photos, odometer_km: 1 });
    expect(replay.error).toBeNull();
    expect(replay.data).toEqual(stored);

    const rows = await sql(
      'select count(*)::int as n from public.booking_handovers where booking_id = $1',
      [bookingId],
    );
    expect(rows[0]!.n).toBe(1);
    const events = await sql<{ status: string; actor: string }>(
      `select status, actor from public.booking_events where booking_id = $1 and status like '%_recorded'`,
      [bookingId],
    );
    expect(events).toEqual([{ status: 'pickup_recorded', actor: 'staff' }]);

    // Staff read it back with the full number.
    const { data: list } = await admin.rpc('staff_booking_handovers', { booking_id: bookingId });
    expect((list as Handover[]).map((h) => h.id_document_number)).toEqual(['AB 1234567']);
  });

  it('records a return after the pickup; the deposit kept needs an amount and a reason', async () => {
    const bookingId = await bookingIn(['reserved', 'in_progress']);
    expectCode((await record(admin, giveBack(bookingId))).error, 'pickup_missing');
    expect((await record(admin, pickup(bookingId))).error).toBeNull();

    expectCode(
      (await record(admin, giveBack(bookingId, { odometer_km: 41_999 }))).error,
      'odometer_below_pickup',
    );
    expectCode(
      (await record(admin, giveBack(bookingId, { deposit_status: 'kept', deposit_kept_dzd: 5000 })))
        .error,
      'deposit_reason_required',
    );
    expectCode(
      (
        await record(
          admin,
          giveBack(bookingId, { deposit_status: 'kept', deposit_reason: 'Rayure' }),
        )
      ).error,
      'deposit_invalid',
    );
    const back = await record(
      admin,
      giveBack(bookingId, {
        odometer_km: 42_000,
        deposit_status: 'kept',
        deposit_kept_dzd: 5000,
        deposit_reason: ' Rétroviseur cassé ',
      }),
    );
    expect(back.error).toBeNull();
    expect(back.data).toMatchObject({
      kind: 'return',
      deposit_status: 'kept',
      deposit_kept_dzd: 5000,
      deposit_reason: 'Rétroviseur cassé',
      id_document_number: null,
    });
    expectCode((await record(admin, giveBack(bookingId))).error, 'handover_exists');
  });

  it('refuses what the form refuses, with a code', async () => {
    const bookingId = await bookingIn(['reserved']);
    const cases: [Record<string, unknown>, string][] = [
      [{ odometer_km: -1 }, 'odometer_invalid'],
      [{ odometer_km: 10.5 }, 'odometer_invalid'],
      [{ odometer_km: '100' }, 'odometer_invalid'],
      [{ fuel_eighths: 9 }, 'fuel_invalid'],
      [{ id_document_number: '' }, 'id_document_required'],
      [{ id_document_type: 'library_card' }, 'id_document_required'],
      [{ licence_seen: false }, 'licence_not_seen'],
      [{ deposit_dzd: -5 }, 'deposit_invalid'],
      [{ damage: [{ x: 120, y: 10, zone: null, note: '' }] }, 'damage_invalid'],
      [{ damage: [{ x: 'a', y: 10, zone: null, note: '' }] }, 'damage_invalid'],
      [{ damage: [{ x: 10, y: 10, zone: 'engine', note: '' }] }, 'damage_invalid'],
      [{ notes: 'x'.repeat(501) }, 'notes_too_long'],
      [{ notes: 'a\u202eb' }, 'notes_invalid'],
      [{ kind: 'inspection' }, 'invalid_payload'],
      [{ booking_id: 'nope' }, 'invalid_payload'],
      [{ booking_id: crypto.randomUUID() }, 'not_found'],
    ];
    for (const [overrides, code] of cases) {
      expectCode((await record(admin, pickup(bookingId, overrides))).error, code);
    }
    const p = pickup(bookingId);
    // A photo that was never uploaded, or a path outside the record's folder.
    expectCode(
      (
        await record(admin, {
          ...p,
          photos: [{ angle: 'front', path: `${bookingId}/${p.id}-front.png` }],
        })
      ).error,
      'photo_missing',
    );
    const elsewhere = await uploadPhoto(bookingId, crypto.randomUUID(), 'front');
    expectCode(
      (await record(admin, { ...p, photos: [{ angle: 'front', path: elsewhere }] })).error,
      'photo_invalid',
    );
    expectCode(
      (
        await record(admin, {
          ...p,
          photos: [{ angle: 'roof', path: `${bookingId}/${p.id}-roof.png` }],
        })
      ).error,
      'photo_invalid',
    );
    // Nothing was stored by the refusals.
    const rows = await sql(
      'select count(*)::int as n from public.booking_handovers where booking_id = $1',
      [bookingId],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('takes every number up to its limit and refuses one past it (src/domain/limits.ts)', async () => {
    const mark = (note: string) => ({ x: 50, y: 50, zone: null, note });
    const marks = (n: number, note = '') => Array.from({ length: n }, () => mark(note));
    const past = await bookingIn(['reserved']);
    const cases: [Record<string, unknown>, string][] = [
      [{ odometer_km: LIMITS.odometerKm + 1 }, 'odometer_invalid'],
      [{ deposit_dzd: LIMITS.amountDzd + 1 }, 'deposit_invalid'],
      [{ damage: marks(LIMITS.damageMarks + 1) }, 'damage_invalid'],
      [{ damage: [mark('n'.repeat(LIMITS.damageNote + 1))] }, 'damage_invalid'],
    ];
    for (const [overrides, code] of cases) {
      expectCode((await record(admin, pickup(past, overrides))).error, code);
    }
    const bookingId = await bookingIn(['reserved', 'in_progress']);
    const atMost = pickup(bookingId, {
      odometer_km: LIMITS.odometerKm - 10,
      deposit_dzd: LIMITS.amountDzd,
      damage: marks(LIMITS.damageMarks, 'n'.repeat(LIMITS.damageNote)),
    });
    expect((await record(admin, atMost)).error).toBeNull();
    const kept = (amount: number) =>
      record(
        admin,
        giveBack(bookingId, {
          odometer_km: LIMITS.odometerKm,
          deposit_status: 'kept',
          deposit_kept_dzd: amount,
          deposit_reason: 'Carrosserie',
        }),
      );
    expectCode((await kept(LIMITS.amountDzd + 1)).error, 'deposit_invalid');
    const back = await kept(LIMITS.amountDzd);
    expect(back.error).toBeNull();
    expect(back.data).toMatchObject({
      odometer_km: LIMITS.odometerKm,
      deposit_kept_dzd: LIMITS.amountDzd,
    });
  });

  it('answers a reused key for another booking or kind with idempotency_key_reused', async () => {
    const bookingId = await bookingIn(['reserved', 'in_progress']);
    const p = pickup(bookingId);
    expect((await record(admin, p)).error).toBeNull();
    expectCode(
      (await record(admin, giveBack(bookingId, { id: p.id }))).error,
      'idempotency_key_reused',
    );
  });

  it('records only on a booking at the right stage', async () => {
    const pending = await bookingIn([]);
    expectCode((await record(admin, pickup(pending))).error, 'handover_wrong_status');
    const cancelled = await bookingIn(['reserved', 'cancelled']);
    expectCode((await record(admin, pickup(cancelled))).error, 'handover_wrong_status');
    const reserved = await bookingIn(['reserved']);
    expect((await record(admin, pickup(reserved))).error).toBeNull();
    // A return needs the rental started.
    expectCode((await record(admin, giveBack(reserved))).error, 'handover_wrong_status');
  });

  it('holds its invariants in the table itself, whoever writes', async () => {
    const bookingId = await bookingIn(['reserved', 'in_progress']);
    const insert = (values: string) =>
      sql(
        `insert into public.booking_handovers (id, booking_id, kind, odometer_km, fuel_eighths,
           deposit_status, deposit_kept_dzd, deposit_reason, recorded_at) values ${values}`,
        [],
      );
    // A return without a pickup (the trigger, for every writer).
    await expect(
      insert(`(gen_random_uuid(), '${bookingId}', 'return', 10, 4, 'returned', null, null, now())`),
    ).rejects.toThrow(/pickup_missing/);
    expect((await record(admin, pickup(bookingId))).error).toBeNull();
    // A return kept without a reason, a fuel level of 9, a negative odometer, under the pickup's.
    await expect(
      insert(`(gen_random_uuid(), '${bookingId}', 'return', 42001, 4, 'kept', 100, null, now())`),
    ).rejects.toThrow(/booking_handovers_return_fields/);
    await expect(
      insert(
        `(gen_random_uuid(), '${bookingId}', 'return', 42001, 9, 'returned', null, null, now())`,
      ),
    ).rejects.toThrow(/booking_handovers_fuel_range/);
    await expect(
      insert(`(gen_random_uuid(), '${bookingId}', 'return', 10, 4, 'returned', null, null, now())`),
    ).rejects.toThrow(/odometer_below_pickup/);
    // A second pickup for the same booking.
    await expect(
      sql(
        `insert into public.booking_handovers (id, booking_id, kind, odometer_km, fuel_eighths,
           id_document_type, id_document_number, licence_seen, deposit_dzd, deposit_status, recorded_at)
         values (gen_random_uuid(), $1, 'pickup', 5, 4, 'passport', 'P1234', true, 0, 'held', now())`,
        [bookingId],
      ),
    ).rejects.toThrow(/booking_handovers_one_per_kind/);
  });
});

describe('who may do what (RLS matrix)', () => {
  let bookingId: string;
  let stored: Handover;

  beforeAll(async () => {
    bookingId = await bookingIn(['reserved']);
    const p = pickup(bookingId);
    const front = await uploadPhoto(bookingId, p.id, 'front');
    const { data, error } = await record(admin, {
      ...p,
      photos: [{ angle: 'front', path: front }],
    });
    expect(error).toBeNull();
    stored = data as Handover;
  });

  it('refuses the RPCs to anon, customers and staff at aal1', async () => {
    const staffAal1 = await signedIn(DEMO_ADMIN_EMAIL, DEMO_PASSWORD, { aal1: true });
    const inProgress = await bookingIn(['reserved', 'in_progress']);
    expectDenied((await record(visitor(), pickup(inProgress))).error);
    expectCode((await record(customer.client, pickup(inProgress))).error, 'not_allowed');
    expectCode((await record(staffAal1, pickup(inProgress))).error, 'not_allowed');
    expectCode(
      (await customer.client.rpc('staff_booking_handovers', { booking_id: bookingId })).error,
      'not_allowed',
    );
    expectCode(
      (await staffAal1.rpc('staff_booking_handovers', { booking_id: bookingId })).error,
      'not_allowed',
    );
    expectDenied((await visitor().rpc('staff_booking_handovers', { booking_id: bookingId })).error);
    // Nobody writes the table directly, staff included.
    for (const client of [admin, customer.client, visitor()]) {
      expectDenied((await client.from('booking_handovers').insert(pickup(inProgress))).error);
      expectDenied(
        (await client.from('booking_handovers').update({ odometer_km: 1 }).eq('id', stored.id))
          .error,
      );
      expectDenied((await client.from('booking_handovers').delete().eq('id', stored.id)).error);
    }
    const unchanged = await sql('select odometer_km from public.booking_handovers where id = $1', [
      stored.id,
    ]);
    expect(unchanged[0]!.odometer_km).toBe(42_000);
  });

  it('lets the customer read their own records, the document number masked, nobody else', async () => {
    const columns =
      'id, kind, odometer_km, fuel_eighths, id_document_masked, deposit_status, photos, damage';
    const mine = await customer.client
      .from('booking_handovers')
      .select(columns)
      .eq('booking_id', bookingId);
    expect(mine.error).toBeNull();
    expect(mine.data).toEqual([
      expect.objectContaining({
        id: stored.id,
        id_document_masked: '•••••••567',
        deposit_status: 'held',
      }),
    ]);
    // The full number is not granted to customers (nor to staff through the table).
    expectDenied(
      (
        await customer.client
          .from('booking_handovers')
          .select('id_document_number')
          .eq('booking_id', bookingId)
      ).error,
    );
    expectDenied((await customer.client.from('booking_handovers').select('*')).error);
    const theirs = await other.client
      .from('booking_handovers')
      .select(columns)
      .eq('booking_id', bookingId);
    expect(theirs.error).toBeNull();
    expect(theirs.data).toEqual([]);
    expectDenied((await visitor().from('booking_handovers').select('id')).error);
    const staff = await admin.from('booking_handovers').select('id').eq('booking_id', bookingId);
    expect(staff.data).toEqual([{ id: stored.id }]);
  });

  it('keeps the photos private: the customer downloads their own, nobody else; only staff upload', async () => {
    const path = stored.photos[0]!.path;
    expect((await customer.client.storage.from('handovers').download(path)).error).toBeNull();
    expect((await admin.storage.from('handovers').download(path)).error).toBeNull();
    expect((await other.client.storage.from('handovers').download(path)).error).not.toBeNull();
    expect((await visitor().storage.from('handovers').download(path)).error).not.toBeNull();
    const own = `${bookingId}/${crypto.randomUUID()}-front.png`;
    for (const client of [customer.client, visitor()]) {
      const { error } = await client.storage.from('handovers').upload(own, pngBlob(), {
        contentType: 'image/png',
      });
      expect(error).not.toBeNull();
    }
    // Staff cannot replace or remove a photo a record names.
    const replaced = await admin.storage
      .from('handovers')
      .upload(path, pngBlob(), { contentType: 'image/png', upsert: true });
    expect(replaced.error).not.toBeNull();
  });

  it('checks a photo by its bytes, not its declared type, and holds the size limit', async () => {
    const text = new Blob(['not a picture at all, only text'], { type: 'image/png' });
    const fake = await admin.storage
      .from('handovers')
      .upload(`${bookingId}/${crypto.randomUUID()}-back.png`, text, { contentType: 'image/png' });
    expect(fake.error).not.toBeNull();
    const buckets = await sql<{
      file_size_limit: string;
      public: boolean;
      allowed_mime_types: string[];
    }>(
      `select file_size_limit::text, public, allowed_mime_types from storage.buckets where id = 'handovers'`,
    );
    expect(buckets).toEqual([
      {
        file_size_limit: '5242880',
        public: false,
        allowed_mime_types: ['image/jpeg', 'image/png', 'image/webp'],
      },
    ]);
  });
});
