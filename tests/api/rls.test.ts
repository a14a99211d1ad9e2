/**
 * Who may do what, through the API as each kind of caller: anon, a guest (anon who made a
 * booking), customer A, customer B and an admin × every table, RPC and bucket — each allowed and
 * each denied case. Plus: RLS is on for every table, and the private schemas stay private.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';

import { sql, testStack } from '../support/clients.ts';
import { checkBookingFiles } from '../support/supabase.ts';
import {
  SEED,
  adminClient,
  algiersAt,
  book,
  expectCode,
  expectDenied,
  newCar,
  newCustomer,
  pngBlob,
  staffMoves,
  uploadBookingFile,
  visitor,
  type Customer,
  type Booking,
  type Notification,
} from '../support/fixtures.ts';

const migrationsDir = fileURLToPath(new URL('../../supabase/migrations', import.meta.url));

let car: string;
let anon: SupabaseClient;
let guest: SupabaseClient;
let guestBooking: Booking;
let a: Customer;
let b: Customer;
let admin: SupabaseClient;
let aPending: Booking;
let aCompleted: Booking;
let bPending: Booking;
let aNotification: Notification;

beforeAll(async () => {
  car = (await newCar()).id;
  anon = visitor();
  guest = visitor();
  admin = await adminClient();
  [a, b] = await Promise.all([newCustomer(), newCustomer()]);
  guestBooking = await book(guest, car, { start_at: algiersAt(5), end_at: algiersAt(6) });
  aPending = await book(a.client, car, { start_at: algiersAt(7), end_at: algiersAt(8) }, true);
  aCompleted = await book(a.client, car, { start_at: algiersAt(9), end_at: algiersAt(10) }, true);
  bPending = await book(b.client, car, { start_at: algiersAt(11), end_at: algiersAt(12) }, true);
  await staffMoves(aCompleted.id, ['reserved', 'in_progress', 'completed']);
  const review = await a.client.rpc('submit_review', {
    booking_id: aCompleted.id,
    rating: 5,
    comment: 'Parfait',
  });
  expect(review.error).toBeNull();
  const n = await a.client
    .from('notifications')
    .select('*')
    .eq('booking_id', aCompleted.id)
    .limit(1);
  aNotification = (n.data as Notification[])[0]!;
});

describe('every table has row-level security and the private schemas are private', () => {
  it('enables RLS on every table of public, internal and storage', async () => {
    const rows = await sql<{ table: string }>(
      `select n.nspname || '.' || c.relname as table
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname in ('public', 'internal', 'storage')
          and not c.relrowsecurity`,
    );
    expect(rows).toEqual([]);
    const tables = await sql<{ count: string }>(
      `select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind = 'r' and n.nspname = 'public'`,
    );
    expect(Number(tables[0]!.count)).toBeGreaterThanOrEqual(9);
  });

  it('declares every function with an empty search_path, never executable by PUBLIC, and every public one SECURITY DEFINER', async () => {
    // The functions our migrations declare (tests may add probes of their own to public).
    const declared = new Set<string>();
    for (const file of readdirSync(migrationsDir).sort()) {
      const text = readFileSync(join(migrationsDir, file), 'utf8');
      for (const m of text.matchAll(/create or replace function (public|internal|authz)\.(\w+)/g)) {
        declared.add(`${m[1]}.${m[2]}`);
      }
      // A later migration may retire one (migrations run in file-name order).
      for (const m of text.matchAll(/^drop function (public|internal|authz)\.(\w+)/gm)) {
        declared.delete(`${m[1]}.${m[2]}`);
      }
    }
    const rows = await sql<{
      name: string;
      definer: boolean;
      config: string[] | null;
      public_exec: boolean;
    }>(
      `select n.nspname || '.' || p.proname as name, p.prosecdef as definer, p.proconfig as config,
              exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) x
                       where x.grantee = 0 and x.privilege_type = 'EXECUTE') as public_exec
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname || '.' || p.proname = any ($1)`,
      [[...declared]],
    );
    expect(rows.map((r) => r.name).sort()).toEqual([...declared].sort());
    expect([...declared]).toEqual(
      expect.arrayContaining([
        'public.car_busy_periods',
        'public.cancel_booking',
        'public.create_booking',
        'public.find_guest_booking',
        'public.is_admin',
        'public.quote_booking',
        'public.staff_set_booking_status',
        'public.submit_review',
      ]),
    );
    for (const r of rows) {
      expect({ name: r.name, config: r.config, public: r.public_exec }).toEqual({
        name: r.name,
        config: ['search_path=""'],
        public: false,
      });
      // Auth hooks run as GoTrue's role (supabase_auth_admin), with its rights: no API role may
      // call them. Every other public function is an RPC and runs as its owner.
      if (r.name.startsWith('public.hook_')) expect(r.definer, r.name).toBe(false);
      else if (r.name.startsWith('public.')) expect(r.definer, r.name).toBe(true);
    }
    const hooks = await sql<{ name: string; role: string; allowed: boolean }>(
      `select p.proname as name, r.role, has_function_privilege(r.role, p.oid, 'execute') as allowed
         from pg_proc p cross join unnest(array['anon', 'authenticated', 'service_role', 'supabase_auth_admin']) r(role)
        where p.pronamespace = 'public'::regnamespace and p.proname like 'hook\\_%'
        order by 1, 2`,
    );
    expect(hooks.filter((h) => h.allowed).map((h) => `${h.name} ${h.role}`)).toEqual([
      'hook_before_user_created supabase_auth_admin',
      'hook_password_verification_attempt supabase_auth_admin',
    ]);
  });

  it('gives the API roles no way into the internal schema', async () => {
    const rows = await sql<{ role: string; usage: boolean }>(
      `select r as role, has_schema_privilege(r, 'internal', 'usage') as usage
         from unnest(array['anon', 'authenticated']) r`,
    );
    expect(rows.every((r) => !r.usage)).toBe(true);
    const outbox = await anon.schema('internal').from('mail_outbox').select('*');
    expect(outbox.data).toBeNull();
    expect(outbox.error).not.toBeNull();
    const pricing = await anon.rpc('price_booking', {});
    expect(pricing.error).not.toBeNull();
  });
});

describe('profiles', () => {
  it('anon reads none', async () => {
    expectDenied((await anon.from('profiles').select('*')).error);
  });
  it('a customer reads only their own', async () => {
    const { data } = await a.client.from('profiles').select('id, full_name, role');
    expect(data).toEqual([{ id: a.id, full_name: 'Lina Bouzid', role: 'user' }]);
  });
  it('a customer updates their own contact fields', async () => {
    const { data, error } = await a.client
      .from('profiles')
      .update({ phone: '+213555999888' })
      .eq('id', a.id)
      .select('phone');
    expect(error).toBeNull();
    expect(data).toEqual([{ phone: '+213555999888' }]);
  });
  it('a customer cannot make themself admin', async () => {
    expectDenied((await a.client.from('profiles').update({ role: 'admin' }).eq('id', a.id)).error);
    const { data } = await a.client.from('profiles').select('role').eq('id', a.id).single();
    expect(data?.role).toBe('user');
  });
  it('a customer cannot change someone else’s profile', async () => {
    const { data } = await a.client
      .from('profiles')
      .update({ full_name: 'Pirate' })
      .eq('id', b.id)
      .select();
    expect(data).toEqual([]);
    const seen = await admin.from('profiles').select('full_name').eq('id', b.id).single();
    expect(seen.data?.full_name).toBe('Lina Bouzid');
  });
  it('a customer cannot insert or delete profiles', async () => {
    expectDenied(
      (await a.client.from('profiles').insert({ id: randomUUID(), full_name: 'X' })).error,
    );
    expectDenied((await a.client.from('profiles').delete().eq('id', a.id)).error);
  });
  it('an admin reads every profile', async () => {
    const { data } = await admin
      .from('profiles')
      .select('id')
      .in('id', [a.id, b.id, SEED.users.customer]);
    expect(data).toHaveLength(3);
  });
});

describe('catalogue tables', () => {
  const tables = ['cars', 'locations', 'extras', 'insurance_options', 'settings'] as const;

  it('anyone reads them, retired rows included (the app’s delta carries removals)', async () => {
    for (const table of tables) {
      const { data, error } = await anon.from(table).select('*');
      expect(error, table).toBeNull();
      expect(data?.length, table).toBeGreaterThan(0);
    }
    const retired = await anon
      .from('cars')
      .select('id, active')
      .eq('id', SEED.cars.retiredClio4)
      .single();
    expect(retired.data).toEqual({ id: SEED.cars.retiredClio4, active: false });
  });
  it('anon cannot write them', async () => {
    expectDenied(
      (await anon.from('extras').insert({ code: 'jetpack', name: {}, price_dzd: 1, per: 'day' }))
        .error,
    );
    expectDenied(
      (await anon.from('cars').update({ daily_rate_dzd: 1 }).eq('id', SEED.cars.clio5)).error,
    );
    expectDenied((await anon.from('settings').update({ driver_per_day_dzd: 1 }).eq('id', 1)).error);
  });
  it('a customer cannot add or change them', async () => {
    expectDenied(
      (
        await a.client.from('locations').insert({
          kind: 'city',
          name: { fr: 'X', en: 'X', ar: 'X' },
          delivery_fee_dzd: 0,
        })
      ).error,
    );
    const upd = await a.client
      .from('cars')
      .update({ daily_rate_dzd: 1 })
      .eq('id', SEED.cars.clio5)
      .select();
    expect(upd.data).toEqual([]);
    const settings = await a.client
      .from('settings')
      .update({ driver_per_day_dzd: 1 })
      .eq('id', 1)
      .select();
    expect(settings.data).toEqual([]);
    const rate = await anon
      .from('cars')
      .select('daily_rate_dzd')
      .eq('id', SEED.cars.clio5)
      .single();
    expect(rate.data?.daily_rate_dzd).toBe(5500);
  });
  it('an admin changes the driver price, never the minimum age', async () => {
    const changed = await admin
      .from('settings')
      .update({ driver_per_day_dzd: 4500 })
      .eq('id', 1)
      .select('driver_per_day_dzd');
    expect(changed.data).toEqual([{ driver_per_day_dzd: 4500 }]);
    await admin.from('settings').update({ driver_per_day_dzd: 4000 }).eq('id', 1);
    expectDenied((await admin.from('settings').update({ min_age: 16 }).eq('id', 1)).error);
  });
  it('nobody deletes from them, admins retire rows instead', async () => {
    expectDenied((await admin.from('cars').delete().eq('id', car)).error);
    expectDenied((await a.client.from('extras').delete().eq('code', 'gps')).error);
  });
  it('an admin adds and updates them, but not the derived rating', async () => {
    const added = await newCar();
    const { data, error } = await admin
      .from('cars')
      .update({ active: false })
      .eq('id', added.id)
      .select('active');
    expect(error).toBeNull();
    expect(data).toEqual([{ active: false }]);
    expectDenied(
      (await admin.from('cars').update({ rating_avg: 5, rating_count: 99 }).eq('id', added.id))
        .error,
    );
  });
});

describe('bookings', () => {
  it('anon and a guest read none (guests use find_guest_booking)', async () => {
    expectDenied((await anon.from('bookings').select('*')).error);
    expectDenied((await guest.from('bookings').select('*').eq('id', guestBooking.id)).error);
  });
  it('a customer reads only their own', async () => {
    const { data } = await a.client.from('bookings').select('id');
    expect(data?.map((r) => r.id).sort()).toEqual([aPending.id, aCompleted.id].sort());
  });
  it('a customer cannot read another customer’s or a guest’s booking', async () => {
    const { data } = await b.client
      .from('bookings')
      .select('id')
      .in('id', [aPending.id, guestBooking.id]);
    expect(data).toEqual([]);
  });
  it('an admin reads all of them', async () => {
    const { data } = await admin
      .from('bookings')
      .select('id')
      .in('id', [aPending.id, bPending.id, guestBooking.id]);
    expect(data).toHaveLength(3);
  });
  it('nobody writes the table directly, not even its owner or an admin', async () => {
    expectDenied(
      (await a.client.from('bookings').update({ status: 'completed' }).eq('id', aPending.id)).error,
    );
    expectDenied((await a.client.from('bookings').insert({ ...aPending, id: randomUUID() })).error);
    expectDenied((await a.client.from('bookings').delete().eq('id', aPending.id)).error);
    expectDenied(
      (await admin.from('bookings').update({ total_dzd: 0 }).eq('id', aPending.id)).error,
    );
    expectDenied((await anon.from('bookings').insert({ ...guestBooking, id: randomUUID() })).error);
  });
});

describe('reviews', () => {
  it('anon reads the public car_reviews view, never the table', async () => {
    expectDenied((await anon.from('reviews').select('*')).error);
    const { data, error } = await anon.from('car_reviews').select('*').eq('car_id', car);
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        id: expect.any(String),
        car_id: car,
        rating: 5,
        comment: 'Parfait',
        created_at: expect.any(String),
        author_name: 'Lina B.',
      },
    ]);
    // Writing the view is refused as not allowed (401/403), never a server error.
    for (const client of [anon, a.client]) {
      const insert = await client.from('car_reviews').insert({ car_id: car, rating: 1 });
      expectDenied(insert.error);
      expect([401, 403]).toContain(insert.status);
      const update = await client.from('car_reviews').update({ rating: 1 }).eq('car_id', car);
      expectDenied(update.error);
    }
  });
  it('the author reads their full review; another customer does not', async () => {
    const mine = await a.client.from('reviews').select('booking_id, user_id').eq('car_id', car);
    expect(mine.data).toEqual([{ booking_id: aCompleted.id, user_id: a.id }]);
    const theirs = await b.client.from('reviews').select('*').eq('car_id', car);
    expect(theirs.data).toEqual([]);
  });
  it('nobody inserts a review directly (submit_review does)', async () => {
    expectDenied(
      (
        await a.client.from('reviews').insert({
          booking_id: aPending.id,
          car_id: car,
          user_id: a.id,
          rating: 5,
        })
      ).error,
    );
    expectDenied(
      (await a.client.from('reviews').update({ rating: 1 }).eq('booking_id', aCompleted.id)).error,
    );
  });
  it('the author cannot delete it; an admin can (moderation)', async () => {
    const tryDelete = await a.client
      .from('reviews')
      .delete()
      .eq('booking_id', aCompleted.id)
      .select();
    expect(tryDelete.data).toEqual([]);
    const extra = await book(
      b.client,
      car,
      { start_at: algiersAt(13), end_at: algiersAt(14) },
      true,
    );
    await staffMoves(extra.id, ['reserved', 'in_progress', 'completed']);
    await b.client.rpc('submit_review', { booking_id: extra.id, rating: 1, comment: 'Spam' });
    const removed = await admin.from('reviews').delete().eq('booking_id', extra.id).select('id');
    expect(removed.data).toHaveLength(1);
    const stars = await anon.from('cars').select('rating_avg, rating_count').eq('id', car).single();
    expect(stars.data).toEqual({ rating_avg: 5, rating_count: 1 });
  });
});

describe('notifications', () => {
  it('anon reads none', async () => {
    expectDenied((await anon.from('notifications').select('*')).error);
  });
  it('a customer reads only their own', async () => {
    const { data } = await a.client.from('notifications').select('user_id');
    expect(data!.length).toBeGreaterThan(0);
    expect(data!.every((n) => n.user_id === a.id)).toBe(true);
    const theirs = await b.client.from('notifications').select('*').eq('id', aNotification.id);
    expect(theirs.data).toEqual([]);
  });
  it('a customer cannot mark someone else’s notification', async () => {
    const { data } = await b.client
      .from('notifications')
      .update({ is_read: true })
      .eq('id', aNotification.id)
      .select();
    expect(data).toEqual([]);
  });
  it('a customer cannot create, re-address or delete notifications', async () => {
    expectDenied(
      (await a.client.from('notifications').insert({ user_id: a.id, type: 'booking_accepted' }))
        .error,
    );
    expectDenied(
      (await a.client.from('notifications').update({ user_id: b.id }).eq('id', aNotification.id))
        .error,
    );
    expectDenied((await a.client.from('notifications').delete().eq('id', aNotification.id)).error);
  });
});

describe('RPCs', () => {
  it('anyone may quote, create (as a guest), list busy periods and look a guest booking up', async () => {
    const quote = await anon.rpc('quote_booking', {
      p: { car_id: SEED.cars.clio5, start_at: algiersAt(3), end_at: algiersAt(4) },
    });
    expect(quote.error).toBeNull();
    const busy = await anon.rpc('car_busy_periods', { from: algiersAt(0), to: algiersAt(30) });
    expect(busy.error).toBeNull();
    const rows = busy.data as Record<string, unknown>[];
    expect(rows.some((r) => r.car_id === car)).toBe(true);
    // No personal data: only the car and the period.
    expect(Object.keys(rows[0]!).sort()).toEqual(['car_id', 'end_at', 'start_at']);
    const found = await visitor().rpc('find_guest_booking', {
      reference: guestBooking.reference,
      contact: guestBooking.guest_email,
    });
    expect((found.data as Booking).id).toBe(guestBooking.id);
  });
  it('anon may not cancel, review or run staff actions', async () => {
    expectDenied((await anon.rpc('cancel_booking', { booking_id: guestBooking.id })).error);
    expectDenied(
      (await anon.rpc('submit_review', { booking_id: aCompleted.id, rating: 5, comment: null }))
        .error,
    );
    expectDenied(
      (
        await anon.rpc('staff_set_booking_status', {
          booking_id: guestBooking.id,
          status: 'reserved',
          reason: null,
        })
      ).error,
    );
  });
  it('customer B cannot cancel or review customer A’s booking', async () => {
    expectCode(
      (await b.client.rpc('cancel_booking', { booking_id: aPending.id })).error,
      'not_found',
    );
    expectCode(
      (await b.client.rpc('submit_review', { booking_id: aCompleted.id, rating: 1, comment: null }))
        .error,
      'review_not_allowed',
    );
  });
  it('customers may not run staff actions; an admin may', async () => {
    expectCode(
      (
        await a.client.rpc('staff_set_booking_status', {
          booking_id: aPending.id,
          status: 'reserved',
          reason: null,
        })
      ).error,
      'not_allowed',
    );
    await checkBookingFiles(testStack(), bPending.id);
    const ok = await admin.rpc('staff_set_booking_status', {
      booking_id: bPending.id,
      status: 'reserved',
      reason: null,
    });
    expect(ok.error).toBeNull();
  });
  it('is_admin tells the caller about themself only', async () => {
    expect((await admin.rpc('is_admin')).data).toBe(true);
    expect((await a.client.rpc('is_admin')).data).toBe(false);
    expect((await anon.rpc('is_admin')).data).toBe(false);
  });
});

describe('storage buckets', () => {
  it('a guest uploads into the folder of a booking not made yet, once', async () => {
    const id = randomUUID();
    await uploadBookingFile(guest, id);
    const again = await guest.storage.from('licenses').upload(`${id}/permis.png`, pngBlob(), {
      contentType: 'image/png',
      upsert: true,
    });
    expect(again.error).not.toBeNull();
  });
  it('a guest never reads or lists booking files, not even their own', async () => {
    const download = await guest.storage.from('licenses').download(guestBooking.license_path!);
    expect(download.data).toBeNull();
    const list = await guest.storage.from('licenses').list(guestBooking.id);
    expect(list.data ?? []).toEqual([]);
  });
  it('nobody but the owner uploads into an existing booking’s folder, and only while pending', async () => {
    const intoGuest = await anon.storage
      .from('licenses')
      .upload(`${guestBooking.id}/autre.png`, pngBlob(), {
        contentType: 'image/png',
      });
    expect(intoGuest.error).not.toBeNull();
    const intoA = await b.client.storage
      .from('licenses')
      .upload(`${aPending.id}/autre.png`, pngBlob(), {
        contentType: 'image/png',
      });
    expect(intoA.error).not.toBeNull();
    await uploadBookingFile(a.client, aPending.id, 'flight-documents', 'billet.png');
    const completedFolder = await a.client.storage
      .from('licenses')
      .upload(`${aCompleted.id}/tard.png`, pngBlob(), {
        contentType: 'image/png',
      });
    expect(completedFolder.error).not.toBeNull();
  });
  it('refuses paths that are not {booking_id}/{file}', async () => {
    for (const path of ['permis.png', 'pas-un-uuid/permis.png', `${randomUUID()}/a/b.png`]) {
      const r = await anon.storage
        .from('licenses')
        .upload(path, pngBlob(), { contentType: 'image/png' });
      expect(r.error, path).not.toBeNull();
    }
  });
  it('the booking’s customer and admins read its files; another customer does not', async () => {
    const own = await a.client.storage.from('licenses').download(aPending.license_path!);
    expect(own.error).toBeNull();
    expect(own.data?.size).toBeGreaterThan(0);
    const stranger = await b.client.storage.from('licenses').download(aPending.license_path!);
    expect(stranger.data).toBeNull();
    const staffRead = await admin.storage.from('licenses').download(guestBooking.license_path!);
    expect(staffRead.error).toBeNull();
  });
  it('only admins delete booking files', async () => {
    const attempt = await a.client.storage.from('licenses').remove([aPending.license_path!]);
    expect(attempt.data ?? []).toEqual([]);
    expect(
      (await a.client.storage.from('licenses').download(aPending.license_path!)).error,
    ).toBeNull();
    const id = randomUUID();
    await uploadBookingFile(guest, id);
    const removed = await admin.storage.from('licenses').remove([`${id}/permis.png`]);
    expect(removed.data).toHaveLength(1);
  });
  it('car pictures: everyone reads, only admins write', async () => {
    const name = `${randomUUID()}.png`;
    const byCustomer = await a.client.storage
      .from('cars')
      .upload(name, pngBlob(), { contentType: 'image/png' });
    expect(byCustomer.error).not.toBeNull();
    const byAnon = await anon.storage
      .from('cars')
      .upload(name, pngBlob(), { contentType: 'image/png' });
    expect(byAnon.error).not.toBeNull();
    const byAdmin = await admin.storage
      .from('cars')
      .upload(name, pngBlob(), { contentType: 'image/png' });
    expect(byAdmin.error).toBeNull();
    const read = await anon.storage.from('cars').download(name);
    expect(read.error).toBeNull();
    const removeByCustomer = await a.client.storage.from('cars').remove([name]);
    expect(removeByCustomer.data ?? []).toEqual([]);
  });
});
