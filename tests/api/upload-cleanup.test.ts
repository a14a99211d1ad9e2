/**
 * The daily cleanup of booking files (docs/decisions.md, "Booking files: what is kept"): files no
 * booking names go a day after their upload, through the Storage API (the object and its bytes),
 * run by the `clean-uploads` schedule through pg_net and the clean-uploads Edge Function, as on
 * hosted Supabase. Files a booking names stay, whatever its status; a file a live booking names
 * cannot be deleted, even by the service role. The clock is the objects' `created_at`, set back
 * by the database owner.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';

import { serviceClient, signedUpUser, sql, testStack, until } from '../support/clients.ts';
import {
  adminClient,
  book,
  draft,
  expectDenied,
  guestContact,
  newCar,
  staffMoves,
  uploadBookingFile,
  visitor,
  type Booking,
} from '../support/fixtures.ts';

type Bucket = 'licenses' | 'flight-documents';
type File = { bucket: Bucket; name: string };
type Outcome = { removed: number; failed: number; more: boolean };

/** Sets a file's upload time back by `age` (an SQL interval), as if it had waited that long. */
async function age(file: File, interval: string): Promise<void> {
  const rows = await sql(
    `update storage.objects set created_at = now() - $3::interval
      where bucket_id = $1 and name = $2 returning 1`,
    [file.bucket, file.name, interval],
  );
  expect(rows, `${file.bucket}/${file.name} is stored`).toHaveLength(1);
}

/** Runs the `clean-uploads` job's command, as pg_cron does, and waits for the function's answer. */
async function runJob(): Promise<Outcome> {
  const [job] = await sql<{ command: string }>(
    "select command from cron.job where jobname = 'clean-uploads'",
  );
  const [call] = await sql<Record<string, string>>(job!.command);
  const requestId = Object.values(call!)[0];
  expect(requestId, 'the job called the function (Vault secrets present)').toBeTruthy();
  const response = await until(async () => {
    const [row] = await sql<{ status_code: number | null; content: string | null }>(
      'select status_code, content from net._http_response where id = $1',
      [requestId],
    );
    return row;
  }, "the function's answer");
  expect(response.status_code, response.content ?? '').toBe(200);
  return JSON.parse(response.content!) as Outcome;
}

async function stored(client: SupabaseClient, file: File): Promise<boolean> {
  const { data, error } = await client.storage.from(file.bucket).download(file.name);
  if (error) {
    expect(error).toMatchObject({ statusCode: '404' });
    return false;
  }
  expect(data.size).toBeGreaterThan(0);
  return true;
}

async function listed(client: SupabaseClient, file: File): Promise<boolean> {
  const [folder, name] = file.name.split('/');
  const { data, error } = await client.storage.from(file.bucket).list(folder);
  expect(error).toBeNull();
  return (data ?? []).some((object) => object.name === name);
}

async function upload(bucket: Bucket = 'licenses'): Promise<File> {
  const name = await uploadBookingFile(visitor(), randomUUID(), bucket);
  return { bucket, name };
}

function licence(booking: Booking): File {
  return { bucket: 'licenses', name: booking.license_path! };
}

describe('the clean-uploads job', () => {
  let admin: SupabaseClient;

  beforeAll(async () => {
    admin = await adminClient();
  });

  it('is scheduled daily and calls the function through pg_net', async () => {
    const [job] = await sql<{ schedule: string; command: string; active: boolean }>(
      "select schedule, command, active from cron.job where jobname = 'clean-uploads'",
    );
    expect(job).toEqual({
      schedule: '17 3 * * *',
      command: `select internal.invoke_edge_function('clean-uploads', '{"type": "SWEEP"}')`,
      active: true,
    });
  });

  it('removes files no booking names a day after their upload, through Storage; keeps the rest', async () => {
    const oldLicence = await upload('licenses');
    const oldFlight = await upload('flight-documents');
    const fresh = await upload('licenses');
    const pending = await book(visitor(), (await newCar()).id);
    const rejected = await book(visitor(), (await newCar()).id);
    await staffMoves(rejected.id, ['rejected']);
    for (const file of [oldLicence, oldFlight]) await age(file, '1 day 1 minute');
    await age(fresh, '23 hours');
    await age(licence(pending), '30 days');
    await age(licence(rejected), '400 days');
    for (const file of [oldLicence, oldFlight, fresh]) expect(await stored(admin, file)).toBe(true);

    const outcome = await runJob();
    expect(outcome.failed).toBe(0);
    expect(outcome.removed).toBeGreaterThanOrEqual(2);

    for (const file of [oldLicence, oldFlight]) {
      expect(await stored(admin, file), `${file.name} downloaded`).toBe(false);
      expect(await listed(admin, file), `${file.name} listed`).toBe(false);
      const rows = await sql('select 1 from storage.objects where bucket_id = $1 and name = $2', [
        file.bucket,
        file.name,
      ]);
      expect(rows).toEqual([]);
      // The bytes went with the object (the local Storage keeps them under its data directory).
      expect(existsSync(join(testStack().dataDir, 'storage', file.bucket, file.name))).toBe(false);
    }
    for (const file of [fresh, licence(pending), licence(rejected)]) {
      expect(await stored(admin, file), `${file.name} kept`).toBe(true);
      expect(await listed(admin, file)).toBe(true);
    }

    // A second run finds nothing more of these.
    const again = await runJob();
    expect(again).toMatchObject({ failed: 0, more: false });
    expect(await stored(admin, fresh)).toBe(true);
  });

  it('forgets the verdicts of removed files, not those of files a booking names', async () => {
    const orphan = await upload('licenses');
    const named = await book(visitor(), (await newCar()).id);
    for (const file of [orphan, licence(named)]) {
      await until(
        async () =>
          (
            await sql('select 1 from internal.upload_checks where bucket_id = $1 and name = $2', [
              file.bucket,
              file.name,
            ])
          ).length > 0,
        `the verdict on ${file.name}`,
      );
    }
    await age(orphan, '8 days');
    await runJob();
    expect(await stored(admin, orphan)).toBe(false);
    await sql(
      `update internal.upload_checks set checked_at = now() - interval '8 days'
        where name = any($1::text[])`,
      [[orphan.name, named.license_path]],
    );
    await runJob();
    const verdicts = await sql<{ name: string }>(
      'select name from internal.upload_checks where name = any($1::text[])',
      [[orphan.name, named.license_path]],
    );
    expect(verdicts).toEqual([{ name: named.license_path }]);
  });

  it('lists stale files oldest first, and continues after a given one', async () => {
    const older = await upload('licenses');
    const newer = await upload('flight-documents');
    await age(older, '9 days');
    await age(newer, '8 days');
    const service = serviceClient();
    const list = async (args: Record<string, unknown>) => {
      const { data, error } = await service.rpc('edge_stale_uploads', args);
      expect(error).toBeNull();
      return data as Array<{ bucket_id: string; name: string; created_at: string }>;
    };
    const all = await list({ batch: 1000 });
    const mine = all.filter((item) => [older.name, newer.name].includes(item.name));
    expect(mine.map((item) => [item.bucket_id, item.name])).toEqual([
      [older.bucket, older.name],
      [newer.bucket, newer.name],
    ]);
    const afterOlder = await list({ batch: 1000, after: mine[0] });
    expect(afterOlder.map((item) => item.name)).not.toContain(older.name);
    expect(afterOlder.map((item) => item.name)).toContain(newer.name);
    expect(await list({ batch: 1 })).toHaveLength(1);
    const { error } = await service.rpc('edge_stale_uploads', { after: { name: older.name } });
    expect(error).toMatchObject({ code: 'P0001', message: 'invalid_payload' });
    await runJob();
  });

  it('answers only the function-call secret and the service role', async () => {
    const call = (token: string | null) =>
      fetch(`${testStack().apiUrl}/functions/v1/clean-uploads`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: '{}',
      });
    const orphan = await upload('licenses');
    await age(orphan, '8 days');

    // verify_jwt = false: the function itself refuses a call without a key.
    expect((await call(null)).status).toBe(403);
    const anon = await call(testStack().anonKey);
    expect(anon.status).toBe(403);
    expect(await anon.json()).toEqual({ error: 'service_role_required' });
    const customer = await signedUpUser();
    const asCustomer = await call(customer.session.access_token);
    expect(asCustomer.status).toBe(403);
    const { data: adminSession } = await admin.auth.getSession();
    expect((await call(adminSession.session!.access_token)).status).toBe(403);
    // The database side is the service role's too.
    expectDenied((await visitor().rpc('edge_stale_uploads', {})).error);
    expectDenied((await customer.client.rpc('edge_stale_uploads', {})).error);
    expect(await stored(admin, orphan)).toBe(true);

    const service = await call(testStack().serviceRoleKey);
    expect(service.status).toBe(200);
    expect(await service.json()).toMatchObject({ failed: 0, more: false });
    expect(await stored(admin, orphan)).toBe(false);
  });
});

describe('files a live booking names', () => {
  it('cannot be deleted, even by the service role; once the booking is over, staff may', async () => {
    const admin = await adminClient();
    const booking = await book(visitor(), (await newCar()).id);
    const file = licence(booking);
    const service = serviceClient().storage.from('licenses');
    expect(await service.remove([file.name])).toEqual({ data: [], error: null });
    expect(await admin.storage.from('licenses').remove([file.name])).toEqual({
      data: [],
      error: null,
    });
    expect(await stored(admin, file)).toBe(true);

    await staffMoves(booking.id, ['cancelled']);
    const removed = await admin.storage.from('licenses').remove([file.name]);
    expect(removed.data).toHaveLength(1);
    expect(await stored(admin, file)).toBe(false);
  });

  // Two sessions at once: the booking's transaction holds the file while the delete waits. PGlite
  // is one session (a second one would only queue behind the first), so this runs on PostgreSQL.
  it.skipIf(testStack().engine === 'pglite')(
    'stay when a booking names them while Storage deletes them',
    async () => {
      const payload = draft((await newCar()).id, guestContact());
      const name = await uploadBookingFile(visitor(), payload.id);
      const file: File = { bucket: 'licenses', name };
      const booking = new pg.Client({ connectionString: testStack().dbUrl });
      await booking.connect();
      try {
        await booking.query('begin');
        await booking.query('select public.create_booking($1::jsonb)', [JSON.stringify(payload)]);
        // The delete starts while the booking is not committed yet: it must wait for it.
        const removal = serviceClient().storage.from('licenses').remove([name]);
        await new Promise((resolve) => setTimeout(resolve, 500));
        await booking.query('commit');
        expect(await removal).toEqual({ data: [], error: null });
      } finally {
        await booking.end();
      }
      expect(await stored(await adminClient(), file)).toBe(true);
      const [row] = await sql<{ status: string }>(
        'select status from public.bookings where id = $1',
        [payload.id],
      );
      expect(row?.status).toBe('pending');
    },
  );
});
