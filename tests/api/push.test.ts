/**
 * Web Push end to end on the local stack (docs/functions.md, push-send; docs/decisions.md,
 * "Push"): who may store a subscription (RLS, the guest's proof through the guest lookup), which
 * endpoints the server will ever POST to, the message the local push service receives and
 * decrypts with the device's key, 404/410 cleanup, retries of a failed send with every attempt
 * recorded, and the batched guest lookup the app refreshes guest bookings with.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';

import { sql, testStack, until } from '../support/clients.ts';
import {
  algiersAt,
  book,
  expectCode,
  expectDenied,
  newCar,
  newCustomer,
  staffMoves,
  visitor,
  type Booking,
  type Customer,
} from '../support/fixtures.ts';
import {
  expirePushDevice,
  failPushDevice,
  fetchPushes,
  subscribePushDevice,
  waitForPushAt,
  type PushDevice,
} from '../support/supabase.ts';

type SubscriptionRow = { id: string; user_id: string | null; endpoint: string; locale: string };

function device(): Promise<PushDevice> {
  const stack = testStack();
  return subscribePushDevice(stack.pushUrl, stack.vapidPublicKey);
}

function row(userId: string, d: PushDevice, locale = 'fr') {
  return {
    user_id: userId,
    endpoint: d.endpoint,
    p256dh: d.keys.p256dh,
    auth: d.keys.auth,
    locale,
  };
}

function guestSubscribe(client: SupabaseClient, b: Booking, contact: string, d: PushDevice) {
  return client.rpc('subscribe_guest_push', {
    reference: b.reference,
    contact,
    endpoint: d.endpoint,
    p256dh: d.keys.p256dh,
    auth: d.keys.auth,
    locale: 'ar',
  });
}

/** Runs push-send now, as the schedule's sweep does. */
async function sweep(): Promise<void> {
  const { apiUrl, serviceRoleKey } = testStack();
  const res = await fetch(`${apiUrl}/functions/v1/push-send`, {
    method: 'POST',
    headers: { authorization: `Bearer ${serviceRoleKey}`, 'content-type': 'application/json' },
    body: '{"type":"SWEEP"}',
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({
    sent: expect.any(Number),
    retried: expect.any(Number),
    failed: expect.any(Number),
    gone: expect.any(Number),
  });
}

type OutboxRow = {
  id: number;
  attempts: number;
  sent_at: string | null;
  failed_at: string | null;
  status_code: number | null;
  last_error: string | null;
};

function outboxFor(endpoint: string): Promise<OutboxRow[]> {
  return sql<OutboxRow>(
    `select id, attempts, sent_at, failed_at, status_code, last_error
       from internal.push_outbox where endpoint = $1 order by id`,
    [endpoint],
  );
}

let car: string;
let owner: Customer;
let other: Customer;

beforeAll(async () => {
  car = (await newCar()).id;
  [owner, other] = await Promise.all([newCustomer(), newCustomer()]);
});

describe('push_subscriptions: who may store what', () => {
  it('lets a customer add, read, renew and remove their own subscriptions, and nobody else', async () => {
    const d = await device();
    const added = await owner.client.from('push_subscriptions').insert(row(owner.id, d)).select();
    expect(added.error).toBeNull();
    const id = (added.data as SubscriptionRow[])[0]!.id;

    // Renewed at each start: an upsert on (user_id, endpoint).
    const renewed = await owner.client
      .from('push_subscriptions')
      .upsert(row(owner.id, d, 'en'), { onConflict: 'user_id,endpoint' })
      .select();
    expect(renewed.error).toBeNull();
    expect((renewed.data as SubscriptionRow[]).map((r) => [r.id, r.locale])).toEqual([[id, 'en']]);

    // Another customer sees nothing, changes nothing, removes nothing, and cannot add in their name.
    const seen = await other.client.from('push_subscriptions').select('id').eq('id', id);
    expect(seen.data).toEqual([]);
    const changed = await other.client
      .from('push_subscriptions')
      .update({ locale: 'ar' })
      .eq('id', id)
      .select();
    expect(changed.data).toEqual([]);
    const removed = await other.client.from('push_subscriptions').delete().eq('id', id).select();
    expect(removed.data).toEqual([]);
    const forged = await other.client
      .from('push_subscriptions')
      .insert(row(owner.id, await device()));
    expectDenied(forged.error);

    // A visitor without an account: no access at all.
    const anon = visitor();
    expectDenied((await anon.from('push_subscriptions').select('id')).error);
    expectDenied(
      (await anon.from('push_subscriptions').insert(row(owner.id, await device()))).error,
    );

    const mine = await owner.client.from('push_subscriptions').select('id, locale');
    expect(mine.data).toEqual([{ id, locale: 'en' }]);
    const gone = await owner.client.from('push_subscriptions').delete().eq('id', id).select('id');
    expect(gone.data).toEqual([{ id }]);
  });

  it('binds a guest subscription to a booking only with the guest lookup’s proof', async () => {
    const b = await book(visitor(), car, { start_at: algiersAt(40), end_at: algiersAt(42) });
    const d = await device();
    const client = visitor();
    const [before] = await sql<{ n: number }>(
      `select count(*)::int as n from internal.guest_lookup_failures where reference_key = $1`,
      [b.reference],
    );

    // Without proof (a wrong contact): nothing stored, and it counts as a failed lookup.
    const refused = await guestSubscribe(client, b, 'someone@else.dz', d);
    expect(refused.error).toBeNull();
    expect(refused.data).toEqual({ subscribed: false, reason: 'not_found' });
    const [after] = await sql<{ n: number }>(
      `select count(*)::int as n from internal.guest_lookup_failures where reference_key = $1`,
      [b.reference],
    );
    expect(after!.n).toBe(before!.n + 1);
    expect(
      await sql('select 1 from public.push_subscriptions where endpoint = $1', [d.endpoint]),
    ).toEqual([]);

    // With the booking's contact: bound to that booking, invisible to any customer.
    const ok = await guestSubscribe(client, b, b.guest_email!, d);
    expect(ok.error).toBeNull();
    expect(ok.data).toEqual({ subscribed: true });
    const stored = await sql<{ booking_id: string; user_id: string | null; locale: string }>(
      'select booking_id, user_id, locale from public.push_subscriptions where endpoint = $1',
      [d.endpoint],
    );
    expect(stored).toEqual([{ booking_id: b.id, user_id: null, locale: 'ar' }]);
    const seen = await owner.client
      .from('push_subscriptions')
      .select('id')
      .eq('endpoint', d.endpoint);
    expect(seen.data).toEqual([]);

    // Turning it off needs the endpoint, which only the device knows.
    const off = await visitor().rpc('unsubscribe_guest_push', { endpoint: d.endpoint });
    expect(off.data).toBe(1);
  });

  it('refuses endpoints of no known push service, for customers and guests alike', async () => {
    const d = await device();
    const b = await book(visitor(), car, { start_at: algiersAt(44), end_at: algiersAt(46) });
    for (const endpoint of [
      'https://attacker.example/push/1',
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com@169.254.169.254/latest',
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'https://fcm.googleapis.com.attacker.example/fcm/send/abc',
      'http://127.0.0.1:5432/',
      `https://fcm.googleapis.com/${'a'.repeat(1100)}`,
    ]) {
      const customer = await owner.client
        .from('push_subscriptions')
        .insert({ ...row(owner.id, d), endpoint });
      expectCode(customer.error, 'invalid_push_endpoint');
      const guest = await guestSubscribe(visitor(), b, b.guest_email!, { ...d, endpoint });
      expectCode(guest.error, 'invalid_push_endpoint');
    }
    // Known services pass (a real Chrome endpoint and an Edge one).
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/dXJ0:APA91b-example',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB',
    ]) {
      const ok = await owner.client
        .from('push_subscriptions')
        .insert({ ...row(owner.id, d), endpoint });
      expect(ok.error).toBeNull();
    }
    await owner.client.from('push_subscriptions').delete().eq('user_id', owner.id);
  });

  it('keeps at most 10 subscriptions per customer (the oldest go) and 5 per guest booking', async () => {
    const customer = await newCustomer();
    const devices = await Promise.all(Array.from({ length: 12 }, () => device()));
    for (const d of devices) {
      const { error } = await customer.client
        .from('push_subscriptions')
        .insert(row(customer.id, d));
      expect(error).toBeNull();
    }
    const kept = await customer.client.from('push_subscriptions').select('endpoint');
    expect((kept.data as SubscriptionRow[]).map((r) => r.endpoint).sort()).toEqual(
      devices
        .slice(2)
        .map((d) => d.endpoint)
        .sort(),
    );

    const b = await book(visitor(), car, { start_at: algiersAt(48), end_at: algiersAt(50) });
    for (const d of devices.slice(0, 7)) {
      expect((await guestSubscribe(visitor(), b, b.guest_email!, d)).data).toEqual({
        subscribed: true,
      });
    }
    const [count] = await sql<{ n: number }>(
      'select count(*)::int as n from public.push_subscriptions where booking_id = $1',
      [b.id],
    );
    expect(count!.n).toBe(5);
  });
});

describe('push-send: the message the device receives', () => {
  it('sends a customer’s decision encrypted for their device, urgent, with a TTL and a topic', async () => {
    const { pushUrl } = testStack();
    const customer = await newCustomer();
    const d = await device();
    await customer.client.from('push_subscriptions').insert(row(customer.id, d, 'en'));
    const b = await book(
      customer.client,
      car,
      { start_at: algiersAt(60), end_at: algiersAt(62) },
      true,
    );
    await staffMoves(b.id, ['reserved']);

    const push = await waitForPushAt(pushUrl, d.endpoint);
    expect(push.json).toMatchObject({
      v: 1,
      type: 'booking_accepted',
      audience: 'customer',
      booking_id: b.id,
      reference: b.reference,
      locale: 'en',
      url: `/mybookings?booking=${b.id}`,
    });
    const [notification] = await sql<{ id: string }>(
      'select id from public.notifications where booking_id = $1',
      [b.id],
    );
    expect(push.json?.notification_id).toBe(notification!.id);
    expect(push.urgency).toBe('high');
    expect(push.ttl).toBeGreaterThan(86_000);
    expect(push.ttl).toBeLessThanOrEqual(86_400);
    expect(push.topic).toBe(b.id.replaceAll('-', ''));
    // Settled once the push service answered (the device may have the message a moment before).
    const sent = await until(async () => {
      const [r] = await outboxFor(d.endpoint);
      return r?.sent_at ? r : null;
    }, 'the message to be settled');
    expect(sent).toMatchObject({ attempts: 1, status_code: 201, failed_at: null });
  });

  it('tells a guest’s device each status with staff’s reason, then forgets the subscription', async () => {
    const { pushUrl } = testStack();
    const b = await book(visitor(), car, { start_at: algiersAt(64), end_at: algiersAt(66) });
    const d = await device();
    expect((await guestSubscribe(visitor(), b, b.guest_phone!, d)).data).toEqual({
      subscribed: true,
    });
    await staffMoves(b.id, ['rejected']);

    const push = await waitForPushAt(pushUrl, d.endpoint);
    expect(push.json).toMatchObject({
      type: 'booking_rejected',
      audience: 'guest',
      booking_id: b.id,
      reference: b.reference,
      reason: 'Véhicule en maintenance',
      locale: 'ar',
      url: `/booking-success?id=${b.id}`,
    });
    // The last outcome ends the guest's subscription; the message had its own copy of the keys.
    expect(
      await sql('select 1 from public.push_subscriptions where booking_id = $1', [b.id]),
    ).toEqual([]);
    // And a finished booking takes no new subscription.
    expect((await guestSubscribe(visitor(), b, b.guest_email!, await device())).data).toEqual({
      subscribed: false,
      reason: 'booking_finished',
    });
  });

  it('deletes a subscription the push service answers 410 for', async () => {
    const customer = await newCustomer();
    const d = await device();
    await customer.client.from('push_subscriptions').insert(row(customer.id, d));
    await expirePushDevice(testStack().pushUrl, d);
    const b = await book(
      customer.client,
      car,
      { start_at: algiersAt(70), end_at: algiersAt(72) },
      true,
    );
    await staffMoves(b.id, ['rejected']);

    const settled = await until(async () => {
      const [r] = await outboxFor(d.endpoint);
      return r?.failed_at ? r : null;
    }, 'the 410 to be settled');
    expect(settled).toMatchObject({ status_code: 410, sent_at: null });
    const left = await customer.client.from('push_subscriptions').select('id');
    expect(left.data).toEqual([]);
    expect(await fetchPushes(testStack().pushUrl, d.endpoint)).toEqual([]);
  });

  it('retries a send the push service failed, and records each attempt', async () => {
    const { pushUrl } = testStack();
    const customer = await newCustomer();
    const d = await device();
    await customer.client.from('push_subscriptions').insert(row(customer.id, d));
    await failPushDevice(pushUrl, d, 503, 1);
    const b = await book(
      customer.client,
      car,
      { start_at: algiersAt(74), end_at: algiersAt(76) },
      true,
    );
    await staffMoves(b.id, ['reserved']);

    const waiting = await until(async () => {
      const [r] = await outboxFor(d.endpoint);
      return r?.status_code === 503 ? r : null;
    }, 'the failed attempt');
    expect(waiting).toMatchObject({ attempts: 1, sent_at: null, failed_at: null });
    expect(waiting.last_error).toMatch(/^503/);
    const [due] = await sql<{ wait: number }>(
      `select extract(epoch from next_attempt_at - now())::int as wait
         from internal.push_outbox where id = $1`,
      [waiting.id],
    );
    // The next attempt after a minute (then 2, 4… at most an hour), from the schedule's sweep.
    expect(due!.wait).toBeGreaterThan(50);
    expect(due!.wait).toBeLessThanOrEqual(60);

    await sql('update internal.push_outbox set next_attempt_at = now() where id = $1', [
      waiting.id,
    ]);
    // The schedule's sweep (run now; the minute's own run may take it first).
    await sweep();
    const sent = await until(async () => {
      const [r] = await outboxFor(d.endpoint);
      return r?.sent_at ? r : null;
    }, 'the retried message to be sent');
    expect(sent).toMatchObject({ attempts: 2, status_code: 201, last_error: null });
    const attempts = await sql<{ attempt: number; status_code: number; outcome: string }>(
      'select attempt, status_code, outcome from internal.push_attempts where push_id = $1 order by attempt',
      [waiting.id],
    );
    expect(attempts).toEqual([
      { attempt: 1, status_code: 503, outcome: 'retry' },
      { attempt: 2, status_code: 201, outcome: 'sent' },
    ]);
    expect(await fetchPushes(pushUrl, d.endpoint)).toHaveLength(1);
  });

  it('refuses callers other than the service role', async () => {
    const { apiUrl, anonKey } = testStack();
    const res = await fetch(`${apiUrl}/functions/v1/push-send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${anonKey}` },
    });
    expect(res.status).toBe(403);
  });
});

describe('find_guest_bookings: every guest booking of a device in one call', () => {
  it('answers each item as the guest lookup does, in order, counting wrong contacts', async () => {
    const [a, b] = await Promise.all([
      book(visitor(), car, { start_at: algiersAt(80), end_at: algiersAt(82) }),
      book(visitor(), car, { start_at: algiersAt(84), end_at: algiersAt(86) }),
    ]);
    await staffMoves(a.id, ['reserved']);
    const client = visitor();
    const { data, error } = await client.rpc('find_guest_bookings', {
      items: [
        { reference: a.reference, contact: a.guest_email },
        { reference: b.reference, contact: 'wrong@contact.dz' },
        { reference: b.reference, contact: b.guest_phone },
      ],
    });
    expect(error).toBeNull();
    const answers = data as Array<{ reference: string; booking: Booking | null }>;
    expect(
      answers.map((x) => [x.reference, x.booking?.id ?? null, x.booking?.status ?? null]),
    ).toEqual([
      [a.reference, a.id, 'reserved'],
      [b.reference, null, null],
      [b.reference, b.id, 'pending'],
    ]);
    const [failures] = await sql<{ n: number }>(
      `select count(*)::int as n from internal.guest_lookup_failures where reference_key = $1`,
      [b.reference],
    );
    expect(failures!.n).toBe(1);
  });

  it('answers a rate-limited item as such and still answers the others', async () => {
    const [a, b] = await Promise.all([
      book(visitor(), car, { start_at: algiersAt(88), end_at: algiersAt(90) }),
      book(visitor(), car, { start_at: algiersAt(92), end_at: algiersAt(94) }),
    ]);
    // b's reference had as many wrong contacts as the lookup allows from every address together.
    await sql(
      `insert into internal.guest_lookup_failures (reference_key, client_key)
       select $1, 'elsewhere-' || n
         from generate_series(1, 6 * (select lookup_failures_per_reference from public.settings where id = 1)) n`,
      [b.reference],
    );
    const { data, error } = await visitor().rpc('find_guest_bookings', {
      items: [
        { reference: b.reference, contact: b.guest_email },
        { reference: a.reference, contact: a.guest_email },
      ],
    });
    expect(error).toBeNull();
    const answers = data as Array<{
      booking?: Booking | null;
      error?: string;
      detail?: { scope: string };
    }>;
    expect(answers[0]).toMatchObject({ error: 'rate_limited', detail: { scope: 'reference' } });
    expect(answers[1]!.booking?.id).toBe(a.id);
  });

  it('refuses more than 10 items or anything but an array of {reference, contact}', async () => {
    const item = { reference: 'KR-0000-0000', contact: 'x@y.dz' };
    const tooMany = await visitor().rpc('find_guest_bookings', { items: Array(11).fill(item) });
    expectCode(tooMany.error, 'invalid_payload');
    expectCode(
      (await visitor().rpc('find_guest_bookings', { items: { a: 1 } })).error,
      'invalid_payload',
    );
    expectCode(
      (await visitor().rpc('find_guest_bookings', { items: [{ reference: 1 }] })).error,
      'invalid_payload',
    );
  });
});
