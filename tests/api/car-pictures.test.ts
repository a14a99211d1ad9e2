/**
 * Car pictures (supabase/migrations/20261126530000_car_pictures.sql, docs/fleet.md "Pictures"):
 * staff at aal2 upload to the public `cars` bucket and save the order through
 * staff_set_car_pictures (coded errors); customers, anon and staff at aal1 are refused both; the
 * catalogue delta carries the change; a picture check-upload refuses leaves the car.
 */
import { randomUUID } from 'node:crypto';

import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';

import { serviceClient, sql, testStack } from '../support/clients.ts';
import {
  adminClient,
  DEMO_ADMIN_EMAIL,
  DEMO_PASSWORD,
  expectCode,
  expectDenied,
  newCar,
  newCustomer,
  pngBlob,
  signedIn,
  visitor,
  type Customer,
} from '../support/fixtures.ts';

const PUBLIC = '/storage/v1/object/public/cars/';

let admin: SupabaseClient;
let customer: Customer;

beforeAll(async () => {
  admin = await adminClient();
  customer = await newCustomer();
});

async function upload(client: SupabaseClient, carId: string, file = `${randomUUID()}.png`) {
  const name = `${carId}/${file}`;
  const { error } = await client.storage
    .from('cars')
    .upload(name, pngBlob(), { contentType: 'image/png' });
  return { name, path: `${PUBLIC}${name}`, error };
}

function setPictures(client: SupabaseClient, carId: string, pictures: string[]) {
  return client.rpc('staff_set_car_pictures', { car_id: carId, pictures });
}

async function imagesOf(carId: string): Promise<{ images: string[]; updated_at: string }> {
  const { data, error } = await visitor()
    .from('cars')
    .select('images, updated_at')
    .eq('id', carId)
    .single();
  expect(error).toBeNull();
  return data as { images: string[]; updated_at: string };
}

describe('staff_set_car_pictures', () => {
  it('saves uploaded pictures in the chosen order (cover first); customers read them and the bytes', async () => {
    const car = await newCar();
    const before = await imagesOf(car.id);
    const a = await upload(admin, car.id);
    const b = await upload(admin, car.id);
    expect(a.error).toBeNull();
    expect(b.error).toBeNull();
    const { data, error } = await setPictures(admin, car.id, [b.path, a.path]);
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: car.id, images: [b.path, a.path] });
    const after = await imagesOf(car.id);
    expect(after.images).toEqual([b.path, a.path]);
    // The catalogue delta (updated_at, id) carries the change to customers' devices.
    expect(new Date(after.updated_at).getTime()).toBeGreaterThan(
      new Date(before.updated_at).getTime(),
    );
    const res = await fetch(`${testStack().apiUrl}${b.path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(
      Buffer.from(await pngBlob().arrayBuffer()),
    );
  });

  it('reorders and removes, keeps the pictures a car already has, and takes an empty list', async () => {
    const car = await newCar();
    await sql(`update public.cars set images = $2 where id = $1`, [
      car.id,
      ['/cars/test-1.svg', '/cars/test-2.svg'],
    ]);
    const up = await upload(admin, car.id);
    let r = await setPictures(admin, car.id, [up.path, '/cars/test-2.svg', '/cars/test-1.svg']);
    expect(r.error).toBeNull();
    expect((await imagesOf(car.id)).images).toEqual([
      up.path,
      '/cars/test-2.svg',
      '/cars/test-1.svg',
    ]);
    r = await setPictures(admin, car.id, ['/cars/test-1.svg']);
    expect(r.error).toBeNull();
    expect((await imagesOf(car.id)).images).toEqual(['/cars/test-1.svg']);
    // A removed app path is not "the car's" any more: it cannot come back through the RPC.
    expectCode((await setPictures(admin, car.id, ['/cars/test-2.svg'])).error, 'invalid_picture');
    r = await setPictures(admin, car.id, []);
    expect(r.error).toBeNull();
    expect((await imagesOf(car.id)).images).toEqual([]);
  });

  it('answers coded errors', async () => {
    const car = await newCar();
    const other = await newCar();
    const up = await upload(admin, car.id);
    const elsewhere = await upload(admin, other.id);
    expectCode((await setPictures(admin, randomUUID(), [])).error, 'car_not_found');
    const thirteen = Array.from({ length: 13 }, (_, i) => `${PUBLIC}${car.id}/p${i}.png`);
    expectCode((await setPictures(admin, car.id, thirteen)).error, 'too_many_pictures');
    expectCode((await setPictures(admin, car.id, [up.path, up.path])).error, 'duplicate_picture');
    // Another car's folder, an outside URL, a path with odd characters: not this car's picture.
    expectCode((await setPictures(admin, car.id, [elsewhere.path])).error, 'invalid_picture');
    expectCode(
      (await setPictures(admin, car.id, ['https://example.com/x.png'])).error,
      'invalid_picture',
    );
    expectCode(
      (await setPictures(admin, car.id, [`${PUBLIC}${car.id}/../x.png`])).error,
      'invalid_picture',
    );
    expectCode(
      (await setPictures(admin, car.id, [`${PUBLIC}${car.id}/missing.png`])).error,
      'picture_not_found',
    );
    // An object stored with another type (storage-api trusts the declared type on hosted).
    const text = `${car.id}/notes.png`;
    await sql(
      `insert into storage.objects (bucket_id, name, metadata) values ('cars', $1, '{"mimetype":"text/plain"}')`,
      [text],
    );
    expectCode((await setPictures(admin, car.id, [`${PUBLIC}${text}`])).error, 'not_an_image');
    // An object check-upload refused by its bytes. The real check of this (valid) upload runs
    // on its own (trigger → check-upload → edge_record_file_check) and would write its verdict
    // over this one: wait for it first.
    await expect
      .poll(
        async () =>
          (
            await sql<{ n: number }>(
              `select count(*)::int as n from internal.upload_checks where bucket_id = 'cars' and name = $1`,
              [up.name],
            )
          )[0]!.n,
        { timeout: 20_000 },
      )
      .toBe(1);
    await sql(
      `insert into internal.upload_checks (bucket_id, name, verdict, reason) values ('cars', $1, 'rejected', 'content_mismatch')
       on conflict (bucket_id, name) do update set verdict = 'rejected', reason = 'content_mismatch'`,
      [up.name],
    );
    expectCode((await setPictures(admin, car.id, [up.path])).error, 'picture_rejected');
    expect((await imagesOf(car.id)).images).toEqual([]);
  });

  it('is the only way the API changes a car’s pictures', async () => {
    const car = await newCar();
    const up = await upload(admin, car.id);
    const { error } = await admin
      .from('cars')
      .update({ images: [up.path] })
      .eq('id', car.id);
    expectCode(error, 'pictures_through_rpc');
    const slug = `test-car-${randomUUID().slice(0, 8)}`;
    const insert = await admin
      .from('cars')
      .insert({ ...carRow(), slug, images: ['/cars/x-1.svg'] })
      .select('id');
    expectCode(insert.error, 'pictures_through_rpc');
    // Other fields still change directly (the fleet form).
    const rename = await admin.from('cars').update({ name: 'Clio 5 bis' }).eq('id', car.id);
    expect(rename.error).toBeNull();
    expect((await imagesOf(car.id)).images).toEqual([]);
  });
});

describe('who may', () => {
  it('refuses customers, anon and staff at aal1 the upload and the RPC; everyone reads', async () => {
    const car = await newCar();
    const staffAal1 = await signedIn(DEMO_ADMIN_EMAIL, DEMO_PASSWORD, { aal1: true });
    const anon = visitor();
    const ok = await upload(admin, car.id);
    for (const client of [customer.client, anon, staffAal1]) {
      const refused = await upload(client, car.id);
      expect(refused.error, 'upload refused').not.toBeNull();
      expect((refused.error as unknown as { statusCode?: string }).statusCode).toBe('403');
      const removal = await client.storage.from('cars').remove([ok.name]);
      expect(removal.data ?? []).toEqual([]);
    }
    expectCode((await setPictures(customer.client, car.id, [ok.path])).error, 'not_allowed');
    expectCode((await setPictures(staffAal1, car.id, [ok.path])).error, 'not_allowed');
    expectDenied((await setPictures(anon, car.id, [ok.path])).error);
    expect((await imagesOf(car.id)).images).toEqual([]);
    // The picture is still there, public.
    const res = await fetch(`${testStack().apiUrl}${ok.path}`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});

describe('check-upload and car pictures', () => {
  it('lists unchecked car pictures, and a refused one leaves every car that shows it', async () => {
    const car = await newCar();
    const up = await upload(admin, car.id);
    expect((await setPictures(admin, car.id, [up.path])).error).toBeNull();
    const service = serviceClient();
    const unchecked = await service.rpc('edge_unchecked_files', {
      bucket: 'cars',
      file_name: up.name,
      batch: 5,
    });
    expect(unchecked.error).toBeNull();
    // Either still unchecked (listed) or already checked ok by the webhook.
    const listed = (unchecked.data as { name: string }[]).map((f) => f.name);
    const verdicts = await sql<{ verdict: string }>(
      `select verdict from internal.upload_checks where bucket_id = 'cars' and name = $1`,
      [up.name],
    );
    expect(listed.includes(up.name) || verdicts[0]?.verdict === 'ok').toBe(true);
    const recorded = await service.rpc('edge_record_file_check', {
      bucket: 'cars',
      file_name: up.name,
      verdict: 'rejected',
      detected_type: 'text/plain',
      reason: 'content_mismatch',
    });
    expect(recorded.error).toBeNull();
    expect((await imagesOf(car.id)).images).toEqual([]);
  });
});

function carRow() {
  return {
    name: 'Renault Clio 5',
    make: 'Renault',
    model: 'Clio',
    body: 'hatchback',
    seats: 5,
    doors: 5,
    passengers: 5,
    fuel: 'diesel',
    year: 2024,
    transmission: 'manual',
    drive: 'fwd',
    engine: '1.5 dCi',
    mileage_km: 1000,
    exterior_color: 'white',
    interior_color: 'black',
    features: [],
    description: { fr: 'Test', en: 'Test', ar: 'اختبار' },
    daily_rate_dzd: 5000,
    deposit_dzd: 40000,
  };
}
