/**
 * Edge Functions on the local stack, as on the platform (docs/functions.md): the real Deno behind
 * /functions/v1 with the platform's JWT check; send-mail (the outbox, leased, never twice,
 * retried), check-upload (files by their bytes; staff accept only checked files; a refused file
 * is removed and its booking refused) and send-email (GoTrue's Send Email hook); the webhooks
 * and schedules that call them (pg_net and pg_cron, stand-ins locally).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { newSendEmailHookSecret } from '../../supabase/local/config.ts';
import { mailsTo, sql, testStack, uniqueEmail, until, waitForMail } from '../support/clients.ts';
import {
  adminClient,
  book,
  createBooking,
  draft,
  expectCode,
  guestContact,
  newCar,
  SEED,
  staffMoves,
  uploadBookingFile,
  visitor,
} from '../support/fixtures.ts';
import { stackInfo, startTestStack, type TestStack } from '../support/stack.ts';
import {
  checkBookingFiles,
  nodeClient,
  parseAuthMail,
  waitForMailAt,
} from '../support/supabase.ts';

/** The Vault secret webhooks and schedules call the functions with (drawn per stack). */
function functionCallSecret(): string {
  return testStack().functionCallSecret;
}

function callFunction(name: string, init: RequestInit & { token?: string | null } = {}) {
  const { token = testStack().serviceRoleKey, ...rest } = init;
  return fetch(`${testStack().apiUrl}/functions/v1/${name}`, {
    method: 'POST',
    ...rest,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(rest.headers as Record<string, string> | undefined),
    },
  });
}

/** Runs `fn` in a transaction of its own connection, rolled back: seen by nobody, and sending nothing. */
async function rolledBack<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testStack().dbUrl });
  await client.connect();
  try {
    await client.query('begin');
    return await fn(client);
  } finally {
    await client.query('rollback');
    await client.end();
  }
}

describe('the functions runtime', () => {
  it('answers an unknown function as the platform does', async () => {
    const res = await callFunction('no-such-function');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'Requested function was not found',
    });
  });

  it('lets only the function-call secret or the service-role key call a function: each checks in code (verify_jwt = false)', async () => {
    for (const name of ['send-mail', 'check-upload', 'clean-uploads', 'push-send']) {
      const missing = await callFunction(name, { token: null, body: '{}' });
      expect(missing.status, name).toBe(403);
      expect(await missing.json()).toEqual({ error: 'service_role_required' });
      // A valid token of another role, a forged one, a near miss of the secret: refused alike.
      const [header, payload] = testStack().serviceRoleKey.split('.');
      for (const token of [
        testStack().anonKey,
        `${header}.${payload}.AAAA`,
        `${functionCallSecret().slice(0, -1)}x`,
      ]) {
        expect((await callFunction(name, { token, body: '{}' })).status, name).toBe(403);
      }
    }
    // What the database sends: the narrow secret, accepted.
    const called = await callFunction('send-mail', {
      token: functionCallSecret(),
      body: JSON.stringify({ type: 'INSERT', schema: 'internal', table: 'mail_outbox' }),
    });
    expect(called.status).toBe(200);

    // send-email is reached without a token and checks its signature.
    const hook = await callFunction('send-email', { token: null, body: '{}' });
    expect(hook.status).toBe(401);
    expect(await hook.json()).toMatchObject({ error: { http_code: 401 } });
  });

  it('queues webhook calls in pg_net with the function-call secret, never the service-role key', async () => {
    // Read the queued request inside the transaction that queues it (the worker takes rows at
    // commit and deletes them, as pg_net does); rolled back, nothing is called.
    await rolledBack(async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `select internal.invoke_edge_function('send-mail', '{}'::jsonb)::text as id`,
      );
      const queued = await client.query<{ headers: Record<string, string> }>(
        'select headers from net.http_request_queue where id = $1::bigint',
        [rows[0]!.id],
      );
      expect(queued.rows).toHaveLength(1);
      const headers = JSON.stringify(queued.rows[0]!.headers);
      expect(headers).toContain(`Bearer ${functionCallSecret()}`);
      expect(headers).not.toContain(testStack().serviceRoleKey);
    });
  });
});

// The send-mail calls the webhooks queue, recorded as they are queued (a trigger on the local
// pg_net's queue, in this file only): noSender waits for their answers.
beforeAll(async () => {
  await sql(`
    create table if not exists net.test_send_mail_calls (id bigint primary key);
    create or replace function net.test_record_send_mail_call() returns trigger
    language plpgsql set search_path = '' as $$
    begin
      insert into net.test_send_mail_calls (id) values (new.id);
      return null;
    end
    $$;
    create or replace trigger test_record_send_mail_call after insert on net.http_request_queue
      for each row when (new.url like '%/functions/v1/send-mail')
      execute function net.test_record_send_mail_call();`);
});

/**
 * Waits until no sender runs: none holds the outbox, and every send-mail call a webhook made has
 * answered. (A sender claims once more after its release, with a pause for the provider's pace
 * first: one still doing so would take the rows a test queues next.)
 */
async function noSender() {
  await until(
    async () =>
      (
        await sql<{ idle: boolean }>(
          `select busy_until < now() and not exists (
                    select from net.test_send_mail_calls c
                     where not exists (select from net._http_response r where r.id = c.id)
                  ) as idle
             from internal.mail_sender`,
        )
      )[0]!.idle,
    'the senders of earlier tests to stop',
  );
}

describe('send-mail', () => {
  it('sends what a statement queues, once each, through the webhook', async () => {
    const to = [uniqueEmail('outbox'), uniqueEmail('outbox'), uniqueEmail('outbox')];
    const rows = await sql<{ id: string }>(
      `insert into internal.mail_outbox (to_email, subject, body_text)
       select address, 'Votre réservation', 'Bonjour ' || address from unnest($1::text[]) address
       returning id`,
      [to],
    );
    for (const address of to) {
      const mail = await waitForMail(address);
      expect(mail.text).toBe(`Bonjour ${address}`);
    }
    // The mail is delivered before the sender records it: wait for the record.
    const sent = await until(
      async () => {
        const found = await sql<{ sent_at: Date | null; attempts: number; provider_id: string }>(
          'select sent_at, attempts, provider_id from internal.mail_outbox where id = any($1::bigint[])',
          [rows.map((row) => row.id)],
        );
        return found.every((row) => row.sent_at !== null) ? found : undefined;
      },
      'the outbox rows marked sent',
      15_000,
    );
    for (const row of sent) {
      expect(row.sent_at).toBeInstanceOf(Date);
      expect(row.attempts).toBe(1);
      expect(row.provider_id).toMatch(/^[0-9a-f-]{36}$/);
    }
    // A sweep afterwards sends nothing again.
    expect(await (await callFunction('send-mail', { body: '{}' })).json()).toMatchObject({
      sent: 0,
    });
    for (const address of to) expect(await mailsTo(address)).toHaveLength(1);
  });

  it('never sends a row twice when calls race: one sender holds the outbox, the others leave', async () => {
    await noSender();
    const to = Array.from({ length: 30 }, () => uniqueEmail('race'));
    // Queued without the webhook (as if it was lost), then three sweeps at once.
    await sql(
      `begin;
       set local session_replication_role = replica;
       insert into internal.mail_outbox (to_email, subject, body_text)
       select address, 'Course', 'x' from unnest(array['${to.join("','")}']) address;
       commit;`,
    );
    const answers = await Promise.all(
      [1, 2, 3].map(
        async () =>
          (await (await callFunction('send-mail', { body: '{}' })).json()) as {
            sent: number;
            busy?: boolean;
          },
      ),
    );
    expect(answers.filter((answer) => answer.busy)).toHaveLength(2);
    expect(answers.find((answer) => !answer.busy)).toMatchObject({ sent: 30 });
    for (const address of to) expect(await mailsTo(address)).toHaveLength(1);
  });
});

describe('settling mails', () => {
  it('settles one mail (a send-mail deployed before the batch call) as a batch settles it', async () => {
    await rolledBack(async (client) => {
      // Queued without the webhook, inside a transaction rolled back: nothing is sent.
      await client.query('set local session_replication_role = replica');
      const { rows } = await client.query<{ id: string }>(
        `insert into internal.mail_outbox (to_email, subject, body_text, attempts, claimed_until)
       select 'settle-' || n || '@kiraa.test', 'Règlement', 'x', a, now() + interval '1 minute'
         from generate_series(1, 8) n, lateral (select case when n in (4, 8) then 8 else 3 end) t(a)
       order by n returning id`,
      );
      const id = (n: number) => Number(rows[n - 1]!.id);
      const outcomes = [
        { provider_id: 'provider-1' },
        { error: 'timeout' },
        { error: 'invalid address', permanent: true },
        { error: 'timeout again' },
      ];
      // Mails 1–4 one by one, mails 5–8 in one batch.
      for (const [i, outcome] of outcomes.entries()) {
        await client.query('select public.edge_settle_mail($1, $2, $3, $4)', [
          id(i + 1),
          outcome.provider_id ?? null,
          outcome.error ?? null,
          outcome.permanent ?? false,
        ]);
      }
      await client.query('select public.edge_settle_mails($1::jsonb)', [
        JSON.stringify(outcomes.map((outcome, i) => ({ mail_id: id(i + 5), ...outcome }))),
      ]);
      const settled = await client.query<Record<string, unknown>>(
        `select id, sent_at is not null as sent, provider_id, last_error, claimed_until,
              next_attempt_at - now() as wait, failed_at is not null as failed
         from internal.mail_outbox where id = any($1::bigint[]) order by id`,
        [rows.map((row) => row.id)],
      );
      const states = settled.rows.map(({ id: _id, ...state }) => state);
      expect(states.slice(0, 4)).toEqual(states.slice(4));
      expect(states.slice(0, 4)).toMatchObject([
        { sent: true, provider_id: 'provider-1', last_error: null, claimed_until: null },
        { sent: false, last_error: 'timeout', failed: false, claimed_until: null },
        { sent: false, last_error: 'invalid address', failed: true },
        // The eighth attempt's failure is the last.
        { sent: false, last_error: 'timeout again', failed: true },
      ]);
    });
  });
});

describe('mail batches', () => {
  it('claims a batch tried before whole, alone and under its key; retries and gives it up together', async () => {
    await rolledBack(async (client) => {
      // Queued without the webhook, older than any other row, inside a transaction rolled back.
      await client.query('set local session_replication_role = replica');
      const { rows } = await client.query<{ id: string }>(
        `insert into internal.mail_outbox (to_email, subject, body_text, created_at)
       select 'batch-' || n || '@kiraa.test', 'Lot', 'x', timestamptz '2000-01-01' + n * interval '1 second'
         from generate_series(1, 3) n order by n returning id`,
      );
      const ids = rows.map((row) => Number(row.id));
      type Claimed = { id: number; batch_key: string; attempts: number };
      const claim = async (batch: number) =>
        (
          await client.query<{ row: Claimed }>('select public.edge_claim_mail($1) as row', [batch])
        ).rows.map(({ row }) => row);

      const first = (await claim(2)).sort((a, b) => a.id - b.id);
      expect(first.map((row) => row.id)).toEqual(ids.slice(0, 2));
      const key = first[0]!.batch_key;
      expect(key).toMatch(/^[0-9a-f-]{36}$/);
      expect(first[1]!.batch_key).toBe(key);

      // Its sender dies (the lease runs out): the same two rows come back under the same key,
      // even with room for the third.
      await client.query(
        `update internal.mail_outbox set claimed_until = now() - interval '1 second' where id = any($1)`,
        [ids],
      );
      const again = (await claim(3)).sort((a, b) => a.id - b.id);
      expect(again.map((row) => [row.id, row.batch_key, row.attempts])).toEqual([
        [ids[0], key, 2],
        [ids[1], key, 2],
      ]);

      // A transient failure: one backoff for the batch, from its most-tried row; at its eighth
      // attempt the batch is given up whole.
      await client.query('update internal.mail_outbox set attempts = 4 where id = $1', [ids[1]]);
      const settle = (error: string) =>
        client.query('select public.edge_settle_mails($1::jsonb)', [
          JSON.stringify(ids.slice(0, 2).map((mail_id) => ({ mail_id, error }))),
        ]);
      const state = async () =>
        (
          await client.query<{ wait: string; failed: boolean }>(
            `select (next_attempt_at - now())::text as wait, failed_at is not null as failed
             from internal.mail_outbox where id = any($1) order by id`,
            [ids.slice(0, 2)],
          )
        ).rows;
      await settle('timeout');
      expect(await state()).toEqual([
        { wait: '00:08:00', failed: false },
        { wait: '00:08:00', failed: false },
      ]);
      await client.query('update internal.mail_outbox set attempts = 8 where id = $1', [ids[1]]);
      await settle('timeout');
      expect((await state()).map((row) => row.failed)).toEqual([true, true]);

      // The third row is a new batch, under a new key.
      const third = await claim(1);
      expect(third.map((row) => row.id)).toEqual([ids[2]]);
      expect(third[0]!.batch_key).not.toBe(key);
    });
  });
});

describe('send-mail: one sender at a time', () => {
  /**
   * The send-mail calls `act` queues after `prepare`, inside a transaction rolled back (seen by
   * nobody, and sending nothing).
   */
  async function sendMailCallsQueued(
    prepare: (client: pg.Client) => Promise<unknown>,
    act: (client: pg.Client) => Promise<unknown>,
  ): Promise<number> {
    return rolledBack(async (client) => {
      await prepare(client);
      const before = await client.query<{ id: string }>(
        'select coalesce(max(id), 0)::text as id from net.http_request_queue',
      );
      await act(client);
      const after = await client.query<{ n: number }>(
        `select count(*)::int as n from net.http_request_queue
        where id > $1 and url like '%/functions/v1/send-mail'`,
        [before.rows[0]!.id],
      );
      return after.rows[0]!.n;
    });
  }

  it('calls no webhook for a statement queued while a sender holds the outbox, one otherwise', async () => {
    const insertUnder = (busy: string) =>
      sendMailCallsQueued(
        (client) =>
          client.query(`update internal.mail_sender set busy_until = now() + $1::interval`, [busy]),
        (client) =>
          client.query(
            `insert into internal.mail_outbox (to_email, subject, body_text)
             values ($1, 'x', 'x'), ($2, 'x', 'x')`,
            [uniqueEmail('held'), uniqueEmail('held')],
          ),
      );
    expect(await insertUnder('1 minute')).toBe(0);
    expect(await insertUnder('-1 second')).toBe(1);
  });

  it('calls the next sender when one releases the outbox with mail still due, none otherwise', async () => {
    const release = (due: boolean) =>
      sendMailCallsQueued(
        async (client) => {
          // Nothing else is due in this transaction: what others queued is leased here.
          await client.query(
            `update internal.mail_outbox set claimed_until = now() + interval '1 minute'
              where sent_at is null and failed_at is null`,
          );
          if (!due) return;
          // Queued without the webhook (as under a sender's hold).
          await client.query(`set local session_replication_role = replica`);
          await client.query(
            `insert into internal.mail_outbox (to_email, subject, body_text) values ($1, 'x', 'x')`,
            [uniqueEmail('due')],
          );
          await client.query(`set local session_replication_role = origin`);
        },
        (client) => client.query('select public.edge_release_mail()'),
      );
    expect(await release(true)).toBe(1);
    expect(await release(false)).toBe(0);
  });

  it('lets one sender hold the outbox: another is refused the hold, and a sender releases only its own', async () => {
    await rolledBack(async (client) => {
      await client.query(`update internal.mail_sender set busy_until = '-infinity', holder = null`);
      const [first, second] = [randomUUID(), randomUUID()];
      const hold = async (sender: string) =>
        (
          await client.query<{ held: boolean }>('select public.edge_hold_mail($1) as held', [
            sender,
          ])
        ).rows[0]!.held;
      const state = async () =>
        (
          await client.query<{ busy: boolean; holder: string | null }>(
            'select busy_until > clock_timestamp() as busy, holder from internal.mail_sender',
          )
        ).rows[0]!;
      expect(await hold(first)).toBe(true);
      expect(await hold(second)).toBe(false);
      expect(await hold(first)).toBe(true);
      await client.query('select public.edge_release_mail($1)', [second]);
      expect(await state()).toEqual({ busy: true, holder: first });
      await client.query('select public.edge_release_mail($1)', [first]);
      expect((await state()).busy).toBe(false);
      expect(await hold(second)).toBe(true);
    });
  });

  it('lets a sender claim nothing while another holds the outbox, and take back a lapsed hold nobody took', async () => {
    await rolledBack(async (client) => {
      await client.query(`update internal.mail_sender set busy_until = '-infinity', holder = null`);
      // Only this row is due in this transaction.
      await client.query(
        `update internal.mail_outbox set claimed_until = now() + interval '1 minute'
          where sent_at is null and failed_at is null`,
      );
      await client.query(
        `insert into internal.mail_outbox (to_email, subject, body_text) values ($1, 'x', 'x')`,
        [uniqueEmail('yield')],
      );
      const [holder, other] = [randomUUID(), randomUUID()];
      const claim = async (sender: string, hold: boolean) =>
        (
          await client.query<{ n: number }>(
            'select count(*)::int as n from public.edge_claim_mail(hold => $2, sender => $1)',
            [sender, hold],
          )
        ).rows[0]!.n;
      await client.query('select public.edge_hold_mail($1)', [holder]);
      // A sender after its release, and one whose hold the holder took.
      expect(await claim(other, false)).toBe(0);
      expect(await claim(other, true)).toBe(0);
      // The holder's hold lapses; the other sender takes it back at its claim, and the rows.
      await client.query(`update internal.mail_sender set busy_until = clock_timestamp()`);
      expect(await claim(other, true)).toBe(1);
      const { rows } = await client.query<{ holder: string; busy: boolean }>(
        'select holder, busy_until > clock_timestamp() as busy from internal.mail_sender',
      );
      expect(rows[0]).toEqual({ holder: other, busy: true });
    });
  });

  it('sends a burst with few calls, each mail once; the sender then releases the outbox', async () => {
    await noSender();
    const since = (await sql<{ now: Date }>('select clock_timestamp() as now'))[0]!.now;
    const to = Array.from({ length: 30 }, () => uniqueEmail('burst'));
    for (const address of to) {
      // A transaction each, as bookings queue them.
      await sql(
        `insert into internal.mail_outbox (to_email, subject, body_text) values ($1, 'Rafale', 'x')`,
        [address],
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const address of to) await waitForMail(address);
    await noSender();
    // Each call answers once it has released the outbox and made its last claim; a call made
    // while another held it left at once (busy).
    const calls = await until(async () => {
      const [row] = await sql<{ calls: number }>(
        `select count(*)::int as calls from net._http_response
          where created >= $1 and content like '{"sent":%' and content not like '%"busy"%'`,
        [since],
      );
      return row!.calls || null;
    }, 'the senders’ answers');
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThanOrEqual(5);
    for (const address of to) expect(await mailsTo(address)).toHaveLength(1);
  });

  it('takes, before it ends, a mail whose transaction saw the hold and committed after the release', async () => {
    await noSender();
    const address = uniqueEmail('late');
    const writer = new pg.Client({ connectionString: testStack().dbUrl });
    await writer.connect();
    try {
      await writer.query('begin');
      // Queued by a transaction that saw a sender's hold: no webhook of its own.
      await writer.query(`set local session_replication_role = replica`);
      await writer.query(
        `insert into internal.mail_outbox (to_email, subject, body_text) values ($1, 'Tard', 'x')`,
        [address],
      );
      const started = Date.now();
      const claim = fetch(`${testStack().apiUrl}/rest/v1/rpc/edge_claim_mail`, {
        method: 'POST',
        headers: {
          apikey: testStack().serviceRoleKey,
          authorization: `Bearer ${testStack().serviceRoleKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ batch: 100, after_writers: true }),
      }).then(async (res) => ({
        rows: (await res.json()) as Array<{ to_email: string }>,
        ms: Date.now() - started,
      }));
      await new Promise((resolve) => setTimeout(resolve, 400));
      await writer.query('commit');
      const { rows, ms } = await claim;
      expect(rows.map((row) => row.to_email)).toContain(address);
      expect(ms).toBeGreaterThanOrEqual(350);
    } finally {
      await writer.end();
    }
    // Claimed, not sent: the next sender sends it when its lease ends; leave nothing behind.
    await sql(`update internal.mail_outbox set claimed_until = null where to_email = $1`, [
      address,
    ]);
    await callFunction('send-mail', { body: '{}' });
    expect(await mailsTo(address)).toHaveLength(1);
  });
});

describe('check-upload', () => {
  let car: string;
  beforeAll(async () => {
    car = (await newCar({ name: 'Hyundai Accent (fichiers)' })).id;
  });
  /** Each booking on a car of its own (the same dates would overlap). */
  const newBooking = async () => book(visitor(), (await newCar()).id);

  /** The verdict recorded for a file, waiting for the webhook's check. */
  function verdictOf(bucket: string, name: string) {
    return until(async () => {
      const [row] = await sql<{ verdict: string; reason: string | null; detected_type: string }>(
        'select verdict, reason, detected_type from internal.upload_checks where bucket_id = $1 and name = $2',
        [bucket, name],
      );
      return row;
    }, `the verdict on ${bucket}/${name}`);
  }

  /**
   * A file stored as a hosted project's storage-api stores it (it checks the declared type, not
   * the bytes): the object's row and bytes, written past the local server's stricter check.
   */
  async function storeAsHosted(bucket: string, name: string, bytes: Buffer, declared: string) {
    const file = join(testStack().dataDir, 'storage', bucket, ...name.split('/'));
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, bytes);
    const metadata = { mimetype: declared, size: bytes.length, eTag: `"${randomUUID()}"` };
    await sql(
      `insert into storage.objects (bucket_id, name, metadata, version)
       values ($1, $2, $3::jsonb, $4)
       on conflict (bucket_id, name) do update set metadata = excluded.metadata, version = excluded.version`,
      [bucket, name, JSON.stringify(metadata), randomUUID()],
    );
  }

  const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]);

  it('finds an uploaded PNG ok by its bytes; staff accept it then, not before', async () => {
    const booking = await newBooking();
    expect(await verdictOf('licenses', booking.license_path!)).toEqual({
      verdict: 'ok',
      reason: null,
      detected_type: 'image/png',
    });

    // Without a verdict (the check still running), staff (aal2) are refused with a clear code. (One
    // transaction, so the minute's sweep cannot check the file in between.)
    const db = new pg.Client({ connectionString: testStack().dbUrl });
    await db.connect();
    const early = await db
      .query(
        `begin;
         delete from internal.upload_checks where name = '${booking.license_path}';
         select set_config('request.jwt.claims', '{"sub": "${SEED.users.admin}", "role": "authenticated", "aal": "aal2"}', true);
         set local role authenticated;
         select public.staff_set_booking_status('${booking.id}', 'reserved', null);
         commit;`,
      )
      .catch((error: pg.DatabaseError) => error);
    await db.end();
    expect(early).toMatchObject({
      code: 'P0001',
      message: 'files_not_checked',
      detail: `licenses/${booking.license_path}`,
    });

    await checkBookingFiles(testStack(), booking.id);
    expect((await staffMoves(booking.id, ['reserved'])).status).toBe('reserved');
  });

  it('refuses a file that is not what it claims: removed, its booking refused, the guest told', async () => {
    const booking = await newBooking();
    await verdictOf('licenses', booking.license_path!);
    // The file is replaced by a Windows program declared as a PDF (hosted storage takes it).
    await storeAsHosted('licenses', booking.license_path!, EXE, 'application/pdf');
    const verdict = await until(async () => {
      const [row] = await sql<{ verdict: string; reason: string; detected_type: string }>(
        `select verdict, reason, detected_type from internal.upload_checks
          where bucket_id = 'licenses' and name = $1 and verdict = 'rejected'`,
        [booking.license_path],
      );
      return row;
    }, 'the rejection');
    expect(verdict).toEqual({
      verdict: 'rejected',
      reason: 'type_not_allowed',
      detected_type: 'application/x-msdownload',
    });

    // Removed through the Storage API (right after the verdict): no row, no bytes.
    await until(
      async () =>
        (
          await sql('select 1 from storage.objects where bucket_id = $1 and name = $2', [
            'licenses',
            booking.license_path,
          ])
        ).length === 0,
      'the removal',
    );
    const admin = await adminClient();
    const download = await admin.storage.from('licenses').download(booking.license_path!);
    expect(download.error).not.toBeNull();

    // The booking is refused with the reason the app shows, and the guest gets the news by mail.
    const [refused] = await sql<{ status: string; status_reason: string }>(
      'select status, status_reason from public.bookings where id = $1',
      [booking.id],
    );
    expect(refused).toEqual({
      status: 'rejected',
      status_reason:
        "Document refusé : le fichier envoyé n'est pas un PDF, JPEG, PNG ou WebP valide.",
    });
    const mail = await waitForMail(booking.guest_email!, (m) => m.text.includes('Document refusé'));
    expect(mail.text).toContain(booking.reference);
  });

  it('refuses a bad file stored before its booking: the booking then lacks its licence', async () => {
    const payload = draft(car, guestContact());
    await storeAsHosted('licenses', payload.license_path, Buffer.from('just text'), 'image/png');
    const verdict = await until(async () => {
      const [row] = await sql<{ verdict: string; reason: string }>(
        "select verdict, reason from internal.upload_checks where bucket_id = 'licenses' and name = $1",
        [payload.license_path],
      );
      return row;
    }, 'the verdict');
    expect(verdict).toEqual({ verdict: 'rejected', reason: 'content_mismatch' });
    await until(
      async () =>
        (
          await sql('select 1 from storage.objects where bucket_id = $1 and name = $2', [
            'licenses',
            payload.license_path,
          ])
        ).length === 0,
      'the removal',
    );
    expectCode((await createBooking(visitor(), payload)).error, 'licence_required');
  });

  it('refuses a booking for a file refused but not removed yet', async () => {
    const payload = draft(car, guestContact());
    await uploadBookingFile(visitor(), payload.id);
    // The moment between the verdict and the removal, held in one transaction.
    const db = new pg.Client({ connectionString: testStack().dbUrl });
    await db.connect();
    const refused = await db
      .query(
        `begin;
         insert into internal.upload_checks (bucket_id, name, verdict, reason)
         values ('licenses', '${payload.license_path}', 'rejected', 'content_mismatch')
         on conflict (bucket_id, name) do update set verdict = 'rejected', reason = 'content_mismatch';
         set local role anon;
         select public.create_booking('${JSON.stringify(payload)}'::jsonb);
         commit;`,
      )
      .catch((error: pg.DatabaseError) => error);
    await db.end();
    expect(refused).toMatchObject({ code: 'P0001', message: 'file_rejected' });
  });

  it('refuses staff accept of a booking whose file was refused', async () => {
    const booking = await newBooking();
    await verdictOf('licenses', booking.license_path!);
    await sql(
      "update internal.upload_checks set verdict = 'rejected', reason = 'content_mismatch' where name = $1",
      [booking.license_path],
    );
    const admin = await adminClient();
    const { error } = await admin.rpc('staff_set_booking_status', {
      booking_id: booking.id,
      status: 'reserved',
      reason: null,
    });
    expectCode(error, 'file_rejected');
  });

  /** A booking file replaced by a Windows program declared as a PDF; waits for its verdict. */
  async function replaceWithProgram(booking: { license_path: string | null }) {
    await verdictOf('licenses', booking.license_path!);
    await storeAsHosted('licenses', booking.license_path!, EXE, 'application/pdf');
    await until(
      async () =>
        (
          await sql(
            "select 1 from internal.upload_checks where name = $1 and verdict = 'rejected'",
            [booking.license_path],
          )
        ).length > 0,
      'the rejection',
    );
  }

  it('writes the refusal in the booking’s language', async () => {
    const booking = await book(visitor(), (await newCar()).id, { locale: 'en' });
    await replaceWithProgram(booking);
    const [row] = await sql<{ status: string; status_reason: string }>(
      'select status, status_reason from public.bookings where id = $1',
      [booking.id],
    );
    expect(row).toEqual({
      status: 'rejected',
      status_reason: 'Document refused: the file sent is not a valid PDF, JPEG, PNG or WebP.',
    });
  });

  it('lets an unconfirmed guest hold past its deadline expire, not refused, and removes its bad file', async () => {
    const booking = await book(visitor(), (await newCar()).id, {}, false, { confirm: false });
    await sql(`update public.bookings set confirm_by = now() - interval '1 second' where id = $1`, [
      booking.id,
    ]);
    await replaceWithProgram(booking);
    await until(
      async () =>
        (
          await sql('select 1 from storage.objects where bucket_id = $1 and name = $2', [
            'licenses',
            booking.license_path,
          ])
        ).length === 0,
      'the removal',
    );
    const [row] = await sql<{ status: string; status_reason: string }>(
      'select status, status_reason from public.bookings where id = $1',
      [booking.id],
    );
    expect(row).toEqual({ status: 'expired', status_reason: 'contact_not_confirmed' });
  });

  it('sweeps files the webhook missed, on the schedule', async () => {
    const payload = draft(car, guestContact());
    // Stored without the webhook (as if the call was lost).
    const file = join(
      testStack().dataDir,
      'storage',
      'licenses',
      ...payload.license_path.split('/'),
    );
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, EXE);
    const writer = new pg.Client({ connectionString: testStack().dbUrl });
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query('set local session_replication_role = replica');
      await writer.query(
        `insert into storage.objects (bucket_id, name, metadata, version)
         values ('licenses', $1, '{"mimetype": "image/jpeg"}', 'v1')`,
        [payload.license_path],
      );
      // No webhook call queued for it (read before the commit: nothing has taken it yet). The
      // schedule's own sweep may check it any time from the commit on.
      const { rows } = await writer.query<{ n: number }>(
        `select count(*)::int as n from net.http_request_queue
          where url like '%/functions/v1/check-upload' and position($1 in convert_from(body, 'utf8')) > 0`,
        [payload.license_path],
      );
      expect(rows[0]!.n).toBe(0);
      await writer.query('commit');
    } finally {
      await writer.end();
    }
    // What the schedule runs every minute.
    const [job] = await sql<{ command: string }>(
      "select command from cron.job where jobname = 'check-upload-sweep'",
    );
    await sql(job!.command);
    const verdict = await until(async () => {
      const [row] = await sql<{ verdict: string }>(
        'select verdict from internal.upload_checks where name = $1',
        [payload.license_path],
      );
      return row;
    }, 'the sweep');
    expect(verdict.verdict).toBe('rejected');
  });
});

/** A Send Email hook call signed as GoTrue signs it (Standard Webhooks), to one stack. */
function signedHook(
  stack: { apiUrl: string; sendEmailHookSecret: string },
  payload: unknown,
  options: { id?: string; at?: number; secret?: string } = {},
) {
  const body = JSON.stringify(payload);
  const id = options.id ?? `msg_${randomUUID()}`;
  const at = options.at ?? Math.floor(Date.now() / 1000);
  const secret = (options.secret ?? stack.sendEmailHookSecret).replace(/^v1,whsec_/, '');
  const signature = createHmac('sha256', Buffer.from(secret, 'base64'))
    .update(`${id}.${at}.${body}`)
    .digest('base64');
  return fetch(`${stack.apiUrl}/functions/v1/send-email`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(at),
      // GoTrue joins several signatures with ", ".
      'webhook-signature': `v1,${Buffer.from('other').toString('base64')}, v1,${signature}`,
    },
  });
}

describe('send-email (the auth Send Email hook)', () => {
  /** A request signed as GoTrue signs it (Standard Webhooks). */
  function signed(payload: unknown, options: { id?: string; at?: number; secret?: string } = {}) {
    return signedHook(testStack(), payload, options);
  }

  const SITE = 'http://localhost:54321/auth/v1';

  it('sends a recovery mail in the language of the redirect, with GoTrue’s link and the code', async () => {
    const email = uniqueEmail('hook');
    const res = await signed({
      user: { email, user_metadata: { name: 'Amel\r\nBcc: x@evil.example', locale: 'en' } },
      email_data: {
        token: '12345678',
        token_hash: 'pkce_abc123',
        redirect_to: 'http://localhost:4173/reset-password?lang=ar',
        email_action_type: 'recovery',
        site_url: SITE,
      },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    const mail = await waitForMail(email);
    expect(mail.subject).toBe('كراء: إعادة تعيين كلمة المرور');
    // No text the requester chose: not even the name they signed up with.
    expect(mail.text.split('\n')[0]).toBe('مرحبًا،');
    expect(mail.text + mail.html).not.toContain('evil');
    expect(mail.text).toContain(
      `${SITE}/verify?token=pkce_abc123&type=recovery&redirect_to=http%3A%2F%2Flocalhost%3A4173%2Freset-password%3Flang%3Dar`,
    );
    expect(mail.text).toContain('12345678');
    expect(mail.html).toContain('dir="rtl"');
  });

  it('writes the sign-up mail in the user’s locale, else French, from the API’s base URL', async () => {
    const english = uniqueEmail('hook');
    await signed({
      user: { email: english, user_metadata: { locale: 'en' } },
      email_data: {
        token: '87654321',
        token_hash: 'hash-en',
        redirect_to: 'http://localhost:4173/',
        email_action_type: 'signup',
        site_url: 'http://localhost:54321',
      },
    });
    const mail = await waitForMail(english);
    expect(mail.subject).toBe('Kiraa: confirm your email address');
    expect(mail.text).toContain(
      'http://localhost:54321/auth/v1/verify?token=hash-en&type=signup&redirect_to=http://localhost:4173/',
    );

    const french = uniqueEmail('hook');
    await signed({
      user: { email: french, user_metadata: {} },
      email_data: { token: '1', token_hash: 'h', email_action_type: 'magiclink', site_url: SITE },
    });
    expect((await waitForMail(french)).subject).toBe('Kiraa : votre lien de connexion');
  });

  it('mails both addresses of a secure e-mail change, with GoTrue’s swapped hashes', async () => {
    const current = uniqueEmail('current');
    const next = uniqueEmail('next');
    await signed({
      user: { email: current, new_email: next, user_metadata: { locale: 'fr' } },
      email_data: {
        token: '11111111',
        token_hash: 'hash-for-new',
        token_new: '22222222',
        token_hash_new: 'hash-for-current',
        email_action_type: 'email_change',
        site_url: SITE,
      },
    });
    const toNew = await waitForMail(next);
    expect(toNew.subject).toBe('Kiraa : confirmez votre nouvelle adresse e-mail');
    expect(toNew.text).toContain('token=hash-for-new&type=email_change');
    expect(toNew.text).toContain('22222222');
    const toCurrent = await waitForMail(current);
    expect(toCurrent.text).toContain('token=hash-for-current&type=email_change');
    expect(toCurrent.text).toContain('11111111');
  });

  it('sends a code without a link for reauthentication; sends a retried call once', async () => {
    const email = uniqueEmail('hook');
    const payload = {
      user: { email },
      email_data: { token: '424242', email_action_type: 'reauthentication', site_url: SITE },
    };
    // GoTrue signs every attempt with a new webhook-id (hookshttp.go): the mail is sent once.
    expect((await signed(payload)).status).toBe(200);
    expect((await signed(payload)).status).toBe(200);
    const mail = await waitForMail(email);
    expect(mail.text).toContain('Votre code : 424242');
    expect(mail.text).not.toContain('/verify');
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('refuses a wrong signature, a stale timestamp and an unknown mail type', async () => {
    const email = uniqueEmail('hook');
    const payload = {
      user: { email },
      email_data: { token: '1', token_hash: 'h', email_action_type: 'recovery', site_url: SITE },
    };
    const wrong = await signed(payload, {
      secret: `v1,whsec_${Buffer.from('nope').toString('base64')}`,
    });
    expect(wrong.status).toBe(401);
    const stale = await signed(payload, { at: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).toBe(401);
    const unknown = await signed({ ...payload, email_data: { email_action_type: 'sms' } });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toMatchObject({ error: { http_code: 400 } });
    // A signed body that is not GoTrue's shape is refused, never a crash (500).
    for (const odd of [null, [payload], 'recovery', 42]) {
      const answer = await signed(odd);
      expect(answer.status, JSON.stringify(odd)).toBe(400);
    }
    expect(await mailsTo(email)).toEqual([]);
  });
});

describe('the local auth service calling send-email as its Send Email hook', () => {
  let stack: TestStack;

  beforeAll(async () => {
    // The hook's address is the stack's own gateway: a port picked before it starts.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    stack = await startTestStack({
      apiPort: port,
      settings: {
        auth: {
          // A lifetime of its own: the function must state config.toml's, not its default.
          email: { enableConfirmations: true, otpExpiry: 1800 },
          hooks: {
            sendEmail: {
              uri: `http://127.0.0.1:${port}/functions/v1/send-email`,
              secrets: newSendEmailHookSecret(),
            },
          },
        },
      },
    });
  });
  afterAll(() => stack?.stop());

  it('mails the sign-up confirmation and the recovery rendered by the function; its links work', async () => {
    const client = nodeClient(stack.apiUrl, stack.anonKey);
    const email = uniqueEmail('hooked');
    const password = 'Kiraa-test1!';
    const signUp = await client.auth.signUp({
      email,
      password,
      options: {
        data: { name: 'Nadia Ferhat', phone: '+213550111222', age: 27, address: 'Oran' },
        emailRedirectTo: 'http://localhost:4173/sign-in?lang=ar',
      },
    });
    expect(signUp.error).toBeNull();
    const confirmation = await waitForMailAt(stack.mailboxUrl, email);
    expect(confirmation.subject).toBe('كراء: أكّد عنوان بريدك الإلكتروني');
    expect(confirmation.html).toContain('dir="rtl"');
    const opened = await fetch(parseAuthMail(confirmation.text).link, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(new URL(opened.headers.get('location')!).hash).toContain('access_token=');

    const reset = await client.auth.resetPasswordForEmail(email, {
      redirectTo: 'http://localhost:4173/reset-password?lang=en',
    });
    expect(reset.error).toBeNull();
    const recovery = await waitForMailAt(stack.mailboxUrl, email, (m) =>
      m.subject.includes('reset'),
    );
    expect(recovery.subject).toBe('Kiraa: reset your password');
    expect(recovery.text).toContain('valid for 30 minutes');
    const { link, code } = parseAuthMail(recovery.text);
    expect(link.searchParams.get('type')).toBe('recovery');
    const verified = await client.auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(verified.error).toBeNull();
  });

  it('mails a secure e-mail change to both addresses, each with its own link and code', async () => {
    const client = nodeClient(stack.apiUrl, stack.anonKey);
    const email = uniqueEmail('hooked');
    await client.auth.signUp({
      email,
      password: 'Kiraa-test1!',
      options: { data: { name: 'Nadia Ferhat', phone: '+213550111222', age: 27, address: 'Oran' } },
    });
    const { code } = parseAuthMail((await waitForMailAt(stack.mailboxUrl, email)).text);
    expect((await client.auth.verifyOtp({ email, token: code, type: 'email' })).error).toBeNull();

    const next = uniqueEmail('hooked-next');
    const asked = await client.auth.updateUser(
      { email: next },
      { emailRedirectTo: 'http://localhost:4173/?lang=en' },
    );
    expect(asked.error).toBeNull();
    const toNew = await waitForMailAt(stack.mailboxUrl, next);
    expect(toNew.subject).toBe('Kiraa: confirm your new email address');
    const toCurrent = await waitForMailAt(stack.mailboxUrl, email, (m) =>
      m.subject.includes('change'),
    );
    expect(toCurrent.subject).toBe('Kiraa: confirm the change of your email address');

    // The new address's link confirms the new address only: the current one's code still counts.
    const opened = await fetch(parseAuthMail(toNew.text).link, { redirect: 'manual' });
    const hash = new URLSearchParams(new URL(opened.headers.get('location')!).hash.slice(1));
    expect(hash.get('message')).toBe(
      'Confirmation link accepted. Please proceed to confirm link sent to the other email',
    );
    const confirmed = await nodeClient(stack.apiUrl, stack.anonKey).auth.verifyOtp({
      email,
      token: parseAuthMail(toCurrent.text).code,
      type: 'email_change',
    });
    expect(confirmed.error).toBeNull();
    expect(confirmed.data.user?.email).toBe(next);
  });
});

describe('schedules (pg_cron) and webhooks (pg_net)', () => {
  it('declares the sweeps, and runs a job declared with cron.schedule on time', async () => {
    const jobs = await sql<{ jobname: string; schedule: string }>(
      'select jobname, schedule from cron.job order by jobname',
    );
    expect(jobs).toEqual(
      expect.arrayContaining([
        { jobname: 'check-upload-sweep', schedule: '* * * * *' },
        { jobname: 'send-mail-sweep', schedule: '* * * * *' },
      ]),
    );
    const name = `test-${randomUUID().slice(0, 8)}`;
    await sql(
      `create table if not exists public.cron_probe (job text, at timestamptz default now())`,
    );
    await sql(`select cron.schedule($1, '1 second', $2)`, [
      name,
      `insert into public.cron_probe (job) values ('${name}')`,
    ]);
    try {
      const runs = await until(async () => {
        const rows = await sql('select 1 from public.cron_probe where job = $1', [name]);
        return rows.length >= 2 ? rows : null;
      }, 'two runs of the job');
      expect(runs.length).toBeGreaterThanOrEqual(2);
      const [details] = await sql<{ status: string }>(
        `select d.status from cron.job_run_details d join cron.job j using (jobid)
          where j.jobname = $1 and d.status = 'succeeded' limit 1`,
        [name],
      );
      expect(details?.status).toBe('succeeded');
    } finally {
      await sql('select cron.unschedule($1)', [name]);
      await sql('drop table public.cron_probe');
    }
  });

  it('expires an unconfirmed guest hold past its deadline, run by the scheduler every minute', async () => {
    const [job] = await sql<{ schedule: string; command: string }>(
      "select schedule, command from cron.job where jobname = 'expire-unconfirmed-bookings'",
    );
    expect(job).toEqual({
      schedule: '* * * * *',
      command: 'select internal.expire_unconfirmed_bookings()',
    });
    // On a car of its own: no booking of that car expires it on the way.
    const booking = await book(visitor(), (await newCar()).id, {}, false, { confirm: false });
    await sql(`update public.bookings set confirm_by = now() - interval '1 second' where id = $1`, [
      booking.id,
    ]);
    // The job's own command, run by the scheduler each second instead of each minute: the test
    // need not wait for the minute to turn (the worker's minutes: supabase/local/workers/cron.test.ts).
    const name = `expire-${randomUUID().slice(0, 8)}`;
    await sql(`select cron.schedule($1, '1 second', $2)`, [name, job!.command]);
    try {
      const expired = await until(async () => {
        const [row] = await sql<{ status: string; status_reason: string }>(
          "select status, status_reason from public.bookings where id = $1 and status <> 'pending'",
          [booking.id],
        );
        return row;
      }, 'the scheduled expiry');
      expect(expired).toEqual({ status: 'expired', status_reason: 'contact_not_confirmed' });
      // The run's effect commits before the scheduler records the run's end: wait for the record.
      const runs = await until(async () => {
        const found = await sql<{ status: string }>(
          `select d.status from cron.job_run_details d join cron.job j using (jobid)
            where j.jobname = $1 and d.status <> 'running'`,
          [name],
        );
        return found.length ? found : undefined;
      }, 'the scheduled run recorded');
      expect(runs.map((run) => run.status)).toContain('succeeded');
    } finally {
      await sql('select cron.unschedule($1)', [name]);
    }
  });

  it('refuses a schedule pg_cron would refuse', async () => {
    await expect(sql(`select cron.schedule('bad', 'every minute', 'select 1')`)).rejects.toThrow(
      /invalid schedule/,
    );
  });
});

describe('a stack whose mail provider fails', () => {
  let provider: Server;
  /** Every request the provider got: its path, key and mails (one, or a batch's). */
  const requests: Array<{
    path: string;
    key: string | undefined;
    mails: Array<Record<string, unknown>>;
  }> = [];
  let failures = 2;
  const throttled = new Set<string>();
  const lost = new Set<string>();
  let stack: TestStack;
  let envDir: string;

  async function readBody(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  }
  const recipient = (mail: Record<string, unknown>) => (mail.to as string[])[0]!;
  /** The requests that carried a mail to `to`. */
  const requestsTo = (to: string) =>
    requests.filter((r) => r.mails.some((m) => recipient(m) === to));

  beforeAll(async () => {
    provider = createServer(async (req, res) => {
      const body = await readBody(req);
      const batch = req.url === '/emails/batch';
      const mails = (batch ? body : [body]) as Array<Record<string, unknown>>;
      requests.push({
        path: req.url ?? '',
        key: req.headers['idempotency-key'] as string | undefined,
        mails,
      });
      const to = mails.map(recipient);
      const throttle = to.find(
        (address) => address.startsWith('throttled') && !throttled.has(address),
      );
      if (throttle) {
        // The provider's rate limit, once for this address (Resend: 2 requests a second).
        throttled.add(throttle);
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ statusCode: 429, name: 'rate_limit_exceeded', message: 'slow' }));
        return;
      }
      if (failures > 0) {
        failures--;
        res.writeHead(503).end();
        return;
      }
      const lose = to.find((address) => address.startsWith('lost') && !lost.has(address));
      if (lose) {
        // Accepted, and the answer lost on the way back (once for this address): a proxy in
        // front of the provider timed out.
        lost.add(lose);
        res.writeHead(504).end();
        return;
      }
      const refused = (address: string) => address.startsWith('refused');
      res.writeHead(200, { 'content-type': 'application/json' });
      if (!batch) {
        res.end(JSON.stringify({ id: `provider-${requests.length}` }));
        return;
      }
      res.end(
        JSON.stringify({
          data: to
            .filter((address) => !refused(address))
            .map((address) => ({ id: `provider-${address}` })),
          errors: to.flatMap((address, index) =>
            refused(address) ? [{ index, message: 'bad address' }] : [],
          ),
        }),
      );
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    envDir = join(testStack().dataDir, `..`, `functions-env-${randomUUID()}`);
    mkdirSync(envDir, { recursive: true });
    const envFile = join(envDir, '.env');
    writeFileSync(
      envFile,
      [
        `MAIL_API_URL=http://127.0.0.1:${(provider.address() as AddressInfo).port}/emails`,
        'MAIL_API_KEY=re_test',
        'MAIL_FROM="Kiraa Test <test@kiraa.example>"',
      ].join('\n'),
    );
    stack = await startTestStack({ db: testStack().engine, functionsEnvFile: envFile });
  });
  afterAll(async () => {
    await stack?.stop();
    provider.closeAllConnections();
    await new Promise((resolve) => provider.close(resolve));
  });

  async function rowOf(id: string) {
    const result = await stack.db.query<{
      sent_at: Date | null;
      attempts: number;
      last_error: string | null;
      failed_at: Date | null;
      next_attempt_at: Date;
      batch_key: string | null;
      provider_id: string | null;
      claimed_until: Date | null;
    }>(
      `select sent_at, attempts, last_error, failed_at, next_attempt_at, batch_key, provider_id,
              claimed_until
         from internal.mail_outbox where id = $1`,
      [id],
    );
    return result.rows[0]!;
  }
  /** Queues mails to `to` in one statement and waits until each row is `done` (sent, given up…). */
  async function queueUntil(
    to: string[],
    done: (row: Awaited<ReturnType<typeof rowOf>>) => boolean,
    what: string,
  ) {
    const { rows } = await stack.db.query<{ id: string }>(
      `insert into internal.mail_outbox (to_email, subject, body_text)
       select address, 'Hello', 'Body' from unnest($1::text[]) with ordinality as t(address, n)
       order by n returning id`,
      [to],
    );
    const states = await until(async () => {
      const current = await Promise.all(rows.map((row) => rowOf(row.id)));
      return current.every(done) ? current : null;
    }, what);
    return rows.map((row, i) => ({ id: row.id, row: states[i]! }));
  }
  /** Queues a mail without its webhook, due in an hour (as a mail waiting for its retry). */
  async function queueQuietly(to: string): Promise<string> {
    return stack.db.tx(async (q) => {
      await q.query('set local session_replication_role = replica');
      const { rows } = await q.query<{ id: string }>(
        `insert into internal.mail_outbox (to_email, subject, body_text, next_attempt_at)
         values ($1, 'Hello', 'Body', now() + interval '1 hour') returning id`,
        [to],
      );
      return rows[0]!.id;
    });
  }
  /**
   * Makes these rows due and sweeps, then waits until each has been claimed once more and settled
   * (a sender still running from a webhook may be the one that takes them).
   */
  async function retryNow(ids: string[]) {
    const before = await Promise.all(ids.map((id) => rowOf(id)));
    await stack.db.query(
      'update internal.mail_outbox set next_attempt_at = now() where id = any($1::bigint[])',
      [ids],
    );
    const res = await fetch(`${stack.apiUrl}/functions/v1/send-mail`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.serviceRoleKey}` },
    });
    expect(res.status).toBe(200);
    await until(async () => {
      const rows = await Promise.all(ids.map((id) => rowOf(id)));
      const settled = rows.every(
        (row, i) => row.attempts > before[i]!.attempts && !row.claimed_until,
      );
      return settled ? rows : null;
    }, 'the retry settled');
  }

  it('sends a batch in one request, and retries a transient failure with backoff as the same request, until sent', async () => {
    const to = ['guest@example.dz', 'guest-two@example.dz'];
    // The first try (the webhook's) has failed and been settled.
    const queued = await queueUntil(to, (current) => !!current.last_error, 'the first try');
    const ids = queued.map((mail) => mail.id);
    const first = queued[0]!.row;
    expect(first.sent_at).toBeNull();
    expect(first.last_error).toMatch(/503/);
    expect(first.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect(await rowOf(ids[1]!)).toMatchObject({
      last_error: first.last_error,
      batch_key: first.batch_key,
    });

    // Due again (as after the backoff), with another mail queued meanwhile: the next sweeps retry
    // the batch alone, and send the new mail in a request of its own.
    const later = await queueQuietly('guest-later@example.dz');
    await retryNow([...ids, later]);
    await retryNow(ids);
    for (const id of ids) {
      const sent = await rowOf(id);
      expect(sent.sent_at).toBeInstanceOf(Date);
      expect(sent.attempts).toBe(3);
    }
    const tries = requestsTo(to[0]!);
    expect(tries).toHaveLength(3);
    for (const tried of tries) {
      expect(tried.path).toBe('/emails/batch');
      expect(tried.key).toBe(`kiraa-mail-batch-${first.batch_key}`);
      expect(tried.mails.map(recipient)).toEqual(to);
    }
    const alone = requestsTo('guest-later@example.dz');
    expect(alone).toHaveLength(1);
    expect(alone[0]!.mails).toHaveLength(1);
    expect(alone[0]!.key).not.toBe(tries[0]!.key);
    // The project's secrets (supabase/functions/.env) replace the local defaults.
    expect(tries[0]!.mails[0]!.from).toBe('Kiraa Test <test@kiraa.example>');
  });

  it('sends a batch whose answer was lost again as the same request, with nothing added', async () => {
    failures = 0;
    const [lostMail] = await queueUntil(
      ['lost@example.dz'],
      (current) => !!current.last_error,
      'the send whose answer was lost',
    );
    expect(lostMail!.row.last_error).toMatch(/504/);
    // A mail queued meanwhile, due with the lost batch when it is retried.
    const meanwhile = await queueQuietly('meanwhile@example.dz');
    await retryNow([lostMail!.id, meanwhile]);
    expect((await rowOf(lostMail!.id)).sent_at).toBeInstanceOf(Date);
    expect((await rowOf(meanwhile)).sent_at).toBeInstanceOf(Date);
    const tries = requestsTo('lost@example.dz');
    expect(tries).toHaveLength(2);
    // The provider recognises the same key with the same mails: delivered once.
    expect(tries[1]!.key).toBe(tries[0]!.key);
    expect(tries[1]!.mails).toEqual(tries[0]!.mails);
    expect(requestsTo('meanwhile@example.dz')[0]!.key).not.toBe(tries[0]!.key);
  });

  it('leaves at once while another sender holds the outbox; that sender’s release calls the next one', async () => {
    const other = randomUUID();
    await until(
      async () =>
        (
          await stack.db.query<{ held: boolean }>('select public.edge_hold_mail($1) as held', [
            other,
          ])
        ).rows[0]!.held,
      'the hold, once the senders of earlier tests have ended',
    );
    const id = await queueQuietly('while-held@example.dz');
    await stack.db.query('update internal.mail_outbox set next_attempt_at = now() where id = $1', [
      id,
    ]);
    const res = await fetch(`${stack.apiUrl}/functions/v1/send-mail`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.serviceRoleKey}` },
    });
    try {
      expect(await res.json()).toEqual({ sent: 0, retried: 0, failed: 0, busy: true });
      // Nor did the last claims of an earlier test's sender take it (they yield to the holder).
      expect(await rowOf(id)).toMatchObject({ attempts: 0, sent_at: null });
    } finally {
      // The holder stops with the mail still due: its release calls a sender, which sends it.
      await stack.db.query('select public.edge_release_mail($1)', [other]);
    }
    await until(async () => (await rowOf(id)).sent_at, 'the mail sent by the next sender');
  });

  it('waits as long as the provider’s rate limit asks, then sends the same batch: no backoff', async () => {
    const [throttledMail] = await queueUntil(
      ['throttled@example.dz'],
      (current) => !!current.sent_at,
      'the mail sent after the wait',
    );
    expect(throttledMail!.row.attempts).toBe(1);
    expect(throttledMail!.row.last_error).toBeNull();
    const tries = requestsTo('throttled@example.dz');
    expect(tries).toHaveLength(2);
    expect(new Set(tries.map((t) => t.key))).toEqual(
      new Set([`kiraa-mail-batch-${throttledMail!.row.batch_key}`]),
    );
  });

  it('gives up at once on a mail the provider refuses, and sends the rest of its batch', async () => {
    const [refused, accepted] = await queueUntil(
      ['refused@example.dz', 'accepted@example.dz'],
      (current) => !!current.failed_at || !!current.sent_at,
      'the refusal and the other mail sent',
    );
    expect(refused!.row.sent_at).toBeNull();
    expect(refused!.row.last_error).toMatch(/refused it: bad address/);
    expect(accepted!.row).toMatchObject({
      provider_id: 'provider-accepted@example.dz',
      last_error: null,
    });
    expect(requestsTo('accepted@example.dz')).toEqual(requestsTo('refused@example.dz'));
  });

  it('send-email: a provider outage is a 503 with Retry-After (GoTrue retries only then), and the retry, with a new webhook-id, is the same send', async () => {
    failures = 1;
    const before = requests.length;
    const email = uniqueEmail('retry');
    const payload = {
      user: { email, user_metadata: { locale: 'fr' } },
      email_data: {
        token: '31415926',
        token_hash: 'hash-retry',
        redirect_to: 'http://localhost:4173/reset-password',
        email_action_type: 'recovery',
        site_url: 'http://localhost:54321/auth/v1',
      },
    };
    const started = Date.now();
    const first = await signedHook(stackInfo(stack), payload);
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('1');
    expect(await first.json()).toEqual({
      error: { http_code: 503, message: 'the mail provider is unavailable' },
    });
    const second = await signedHook(stackInfo(stack), payload);
    expect(second.status).toBe(200);
    // Both attempts within GoTrue's 5 s budget for the whole call.
    expect(Date.now() - started).toBeLessThan(5_000);
    const sent = requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.path).toBe('/emails');
    expect(sent[0]!.key).toMatch(/^auth-mail:[0-9a-f]{64}$/);
    expect(sent[1]!.key).toBe(sent[0]!.key);
    // The key reveals no token.
    expect(sent[0]!.key).not.toContain('hash-retry');
    // Another mail (another recipient, or another token) has another key.
    await signedHook(stackInfo(stack), { ...payload, user: { email: uniqueEmail('retry') } });
    expect(requests.at(-1)!.key).not.toBe(sent[0]!.key);
  });
});
