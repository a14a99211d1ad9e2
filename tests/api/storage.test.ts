/**
 * The local storage API through supabase-js, against the run's real stack (PGlite or
 * PostgreSQL): RLS on storage.objects / storage.buckets as the caller, limits checked on the
 * bytes, signed URLs, public buckets, move / copy / list / info / exists and bucket management.
 * The test creates its own buckets and policies (the app's buckets belong to the migrations).
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { signJwt } from '../../supabase/local/jwt.ts';
import { anonClient, serviceClient, sql, testStack } from '../support/clients.ts';

const run = randomUUID().slice(0, 8);
const PRIVATE = `t-private-${run}`;
const DOCS = `t-docs-${run}`;
const PUBLIC = `t-public-${run}`;
const SCRATCH = `t-scratch-${run}`;
const TEST_BUCKETS = [PRIVATE, DOCS, PUBLIC];
const DOCS_LIMIT = 5000;
const DOCS_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'];

const text = (s: string) => new TextEncoder().encode(s);
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

function pdf(size = 600): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(text('%PDF-1.7\n'));
  bytes.set(text('%%EOF\n'), size - 6);
  return bytes;
}
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
  0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
]);
function elf(): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(512);
  bytes.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);
  return bytes;
}
function pe(): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(512);
  bytes.set(text('MZ'));
  bytes.set([0x80, 0, 0, 0], 0x3c);
  bytes.set(text('PE\0\0'), 0x80);
  return bytes;
}

type StorageUser = {
  client: SupabaseClient;
  user: { id: string };
  session: { access_token: string };
};

/**
 * A signed-in user as storage sees one: supabase-js with an access token exactly as GoTrue mints
 * it (HS256 with the project's secret, role authenticated, sub = the user's id). Storage only
 * reads the token, so the test does not depend on the auth API.
 */
function storageUser(): StorageUser {
  const { apiUrl, anonKey, jwtSecret } = testStack();
  const id = randomUUID();
  const now = Math.floor(Date.now() / 1000);
  const accessToken = signJwt(
    {
      aud: 'authenticated',
      role: 'authenticated',
      sub: id,
      email: `${id.slice(0, 8)}@kiraa.test`,
      app_metadata: { provider: 'email', role: 'user' },
      iat: now,
      exp: now + 3600,
    },
    jwtSecret,
  );
  const client = createClient(apiUrl, anonKey, {
    accessToken: async () => accessToken,
    realtime: { transport: class {} as never },
  });
  return { client, user: { id }, session: { access_token: accessToken } };
}

let alice: StorageUser;
let bob: StorageUser;
let service: SupabaseClient;
let anon: SupabaseClient;
let storageDir: string;

/** The bytes of an object on disk (null when there is no file). */
function onDisk(bucket: string, key: string): Buffer | null {
  const path = join(storageDir, bucket, ...key.split('/'));
  return existsSync(path) ? readFileSync(path) : null;
}

async function rowOf(bucket: string, key: string) {
  const rows = await sql<{
    owner: string | null;
    owner_id: string | null;
    metadata: Record<string, unknown>;
  }>('select owner, owner_id, metadata from storage.objects where bucket_id = $1 and name = $2', [
    bucket,
    key,
  ]);
  return rows[0] ?? null;
}

async function blobText(blob: Blob | null): Promise<string> {
  return blob ? await blob.text() : '';
}

beforeAll(async () => {
  const stack = testStack();
  storageDir = join(stack.dataDir, 'storage');
  service = serviceClient();
  anon = anonClient();
  [alice, bob] = [storageUser(), storageUser()];

  // Buckets through the API with the service role (bucket CRUD is tested below as well).
  for (const [id, options] of [
    [PRIVATE, { public: false }],
    [DOCS, { public: false, fileSizeLimit: DOCS_LIMIT, allowedMimeTypes: DOCS_TYPES }],
    [PUBLIC, { public: true }],
  ] as const) {
    const { error } = await service.storage.createBucket(id, options);
    expect(error).toBeNull();
  }

  // Users own the folder named after their id, in the test buckets only.
  const buckets = `array[${TEST_BUCKETS.map((b) => `'${b}'`).join(', ')}]`;
  const mine = `bucket_id = any(${buckets}) and (storage.foldername(name))[1] = (select auth.uid())::text`;
  await sql(`create policy "t${run} users read their folder" on storage.objects
    for select to authenticated using (${mine})`);
  await sql(`create policy "t${run} users upload to their folder" on storage.objects
    for insert to authenticated with check (${mine})`);
  await sql(`create policy "t${run} users replace in their folder" on storage.objects
    for update to authenticated using (${mine}) with check (${mine})`);
  await sql(`create policy "t${run} users delete in their folder" on storage.objects
    for delete to authenticated using (${mine})`);
});

afterAll(async () => {
  for (const command of ['read', 'upload to', 'replace in', 'delete in']) {
    await sql(`drop policy if exists "t${run} users ${command} their folder" on storage.objects`);
  }
  for (const id of [...TEST_BUCKETS, SCRATCH]) {
    await service.storage.emptyBucket(id);
    await service.storage.deleteBucket(id);
  }
});

describe('private objects and RLS', () => {
  const key = () => `${alice.user.id}/notes/licence.txt`;
  const body = text('Permis de conduire n° 123456');

  beforeAll(async () => {
    const { data, error } = await alice.client.storage
      .from(PRIVATE)
      .upload(key(), body, { contentType: 'text/plain' });
    expect(error).toBeNull();
    expect(data).toMatchObject({ path: key(), fullPath: `${PRIVATE}/${key()}` });
    expect(data?.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lets the owner read back what they uploaded, stored with Supabase metadata', async () => {
    const { data, error } = await alice.client.storage.from(PRIVATE).download(key());
    expect(error).toBeNull();
    expect(new Uint8Array(await data!.arrayBuffer())).toEqual(body);

    const row = await rowOf(PRIVATE, key());
    expect(row).toMatchObject({ owner: alice.user.id, owner_id: alice.user.id });
    expect(row?.metadata).toMatchObject({
      eTag: `"${md5(body)}"`,
      size: body.length,
      contentLength: body.length,
      mimetype: 'text/plain',
      cacheControl: 'max-age=3600',
      httpStatusCode: 200,
    });
    expect(onDisk(PRIVATE, key())).toEqual(Buffer.from(body));

    const info = await alice.client.storage.from(PRIVATE).info(key());
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({
      name: key(),
      bucketId: PRIVATE,
      size: body.length,
      contentType: 'text/plain',
      etag: `"${md5(body)}"`,
    });
    expect((await alice.client.storage.from(PRIVATE).exists(key())).data).toBe(true);
  });

  it('hides the object from another user: no read, list, download, sign, info or delete', async () => {
    const bucket = bob.client.storage.from(PRIVATE);
    const download = await bucket.download(key());
    expect(download.data).toBeNull();
    expect(download.error).toMatchObject({
      status: 400,
      statusCode: '404',
      message: 'Object not found',
    });

    const list = await bucket.list(alice.user.id);
    expect(list).toEqual({ data: [], error: null });

    const signed = await bucket.createSignedUrl(key(), 60);
    expect(signed.error).toMatchObject({ statusCode: '404' });

    const info = await bucket.info(key());
    expect(info.error).toMatchObject({ statusCode: '404' });
    expect((await bucket.exists(key())).data).toBe(false);

    const removed = await bucket.remove([key()]);
    expect(removed).toEqual({ data: [], error: null });
    expect(onDisk(PRIVATE, key())).toEqual(Buffer.from(body));
    expect(await rowOf(PRIVATE, key())).not.toBeNull();
  });

  it('refuses another user writing into the owner folder, and keeps the original', async () => {
    const bucket = bob.client.storage.from(PRIVATE);
    const upload = await bucket.upload(`${alice.user.id}/intruder.txt`, text('x'));
    expect(upload.error).toMatchObject({
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    expect(onDisk(PRIVATE, `${alice.user.id}/intruder.txt`)).toBeNull();

    const upsert = await bucket.upload(key(), text('overwritten'), { upsert: true });
    expect(upsert.error).toMatchObject({ statusCode: '403' });
    const update = await bucket.update(key(), text('overwritten'));
    expect(update.error).toMatchObject({ statusCode: '404' });
    expect(onDisk(PRIVATE, key())).toEqual(Buffer.from(body));
  });

  it('gives a signed-out visitor nothing', async () => {
    const bucket = anon.storage.from(PRIVATE);
    expect((await bucket.download(key())).error).toMatchObject({ statusCode: '404' });
    expect(await bucket.list(alice.user.id)).toEqual({ data: [], error: null });
    expect((await bucket.createSignedUrl(key(), 60)).error).toMatchObject({ statusCode: '404' });
    expect((await bucket.upload(`${alice.user.id}/anon.txt`, text('x'))).error).toMatchObject({
      statusCode: '403',
    });
    expect(await bucket.remove([key()])).toEqual({ data: [], error: null });
    // No token at all on the authenticated route (the gateway then uses the API key: anon).
    const res = await fetch(
      `${testStack().apiUrl}/storage/v1/object/authenticated/${PRIVATE}/${key()}`,
      {
        headers: { apikey: testStack().anonKey },
      },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ statusCode: '404', error: 'not_found' });
  });

  it('refuses forged and expired tokens', async () => {
    const { apiUrl, anonKey, jwtSecret } = testStack();
    const url = `${apiUrl}/storage/v1/object/${PRIVATE}/${key()}`;
    const claims = { role: 'authenticated', sub: alice.user.id, aud: 'authenticated' };
    const forged = signJwt({ ...claims, exp: Math.floor(Date.now() / 1000) + 60 }, 'x'.repeat(40));
    const expired = signJwt({ ...claims, exp: Math.floor(Date.now() / 1000) - 5 }, jwtSecret);
    for (const [token, message] of [
      [forged, 'invalid signature'],
      [expired, 'jwt expired'],
    ] as const) {
      const res = await fetch(url, {
        headers: { apikey: anonKey, authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        statusCode: '403',
        code: 'AccessDenied',
        error: 'Unauthorized',
        message,
      });
    }
  });

  it('lets the owner replace (update, upsert) but not re-upload over an existing object', async () => {
    const bucket = alice.client.storage.from(PRIVATE);
    const path = `${alice.user.id}/replace.txt`;
    expect((await bucket.upload(path, text('v1'))).error).toBeNull();

    const again = await bucket.upload(path, text('v2'));
    expect(again.error).toMatchObject({
      status: 400,
      statusCode: '409',
      message: 'The resource already exists',
    });
    expect(onDisk(PRIVATE, path)?.toString()).toBe('v1');

    expect((await bucket.upload(path, text('v3'), { upsert: true })).error).toBeNull();
    expect(onDisk(PRIVATE, path)?.toString()).toBe('v3');
    expect((await bucket.update(path, new Blob(['v4'], { type: 'text/plain' }))).error).toBeNull();
    expect(await blobText((await bucket.download(path)).data)).toBe('v4');
    expect((await rowOf(PRIVATE, path))?.metadata).toMatchObject({
      size: 2,
      eTag: `"${md5(text('v4'))}"`,
    });

    const missing = await bucket.update(`${alice.user.id}/missing.txt`, text('x'));
    expect(missing.error).toMatchObject({ statusCode: '404' });
  });

  it('keeps row and bytes in step under concurrent writes of one key', async () => {
    const bucket = alice.client.storage.from(PRIVATE);
    const path = `${alice.user.id}/race.txt`;
    const bodies = Array.from({ length: 8 }, (_, i) => text(`version ${i} `.repeat(50 + i)));
    const created = await Promise.all(bodies.map((b) => bucket.upload(path, b)));
    expect(created.filter((r) => r.error === null)).toHaveLength(1);
    expect(created.filter((r) => r.error?.statusCode === '409')).toHaveLength(7);
    const winner = bodies[created.findIndex((r) => r.error === null)]!;
    expect(onDisk(PRIVATE, path)).toEqual(Buffer.from(winner));

    const upserts = await Promise.all(bodies.map((b) => bucket.upload(path, b, { upsert: true })));
    expect(upserts.every((r) => r.error === null)).toBe(true);
    const bytes = onDisk(PRIVATE, path)!;
    expect((await rowOf(PRIVATE, path))?.metadata).toMatchObject({
      eTag: `"${md5(bytes)}"`,
      size: bytes.length,
    });
  });

  it('normalises slashes and refuses unsafe keys', async () => {
    const bucket = alice.client.storage.from(PRIVATE);
    const { data, error } = await bucket.upload(`/${alice.user.id}//a///b.txt/`, text('b'));
    expect(error).toBeNull();
    expect(data?.path).toBe(`${alice.user.id}/a/b.txt`);
    expect(onDisk(PRIVATE, `${alice.user.id}/a/b.txt`)?.toString()).toBe('b');

    const { apiUrl, anonKey } = testStack();
    for (const name of [
      `${alice.user.id}/a/..%2F..%2F..%2Fescape.txt`,
      `${alice.user.id}/r%C3%A9sum%C3%A9.pdf`,
    ]) {
      const res = await fetch(`${apiUrl}/storage/v1/object/${PRIVATE}/${name}`, {
        method: 'POST',
        headers: { apikey: anonKey, authorization: `Bearer ${alice.session.access_token}` },
        body: 'x',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ statusCode: '400', code: 'InvalidKey' });
    }
    expect(existsSync(join(storageDir, 'escape.txt'))).toBe(false);
  });
});

describe('limits checked on the bytes', () => {
  const path = (name: string) => `${alice.user.id}/${name}`;

  it('refuses a file over the bucket limit and stores nothing', async () => {
    const { error } = await alice.client.storage
      .from(DOCS)
      .upload(path('big.pdf'), pdf(DOCS_LIMIT + 1), { contentType: 'application/pdf' });
    expect(error).toMatchObject({
      status: 400,
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    });
    expect(await rowOf(DOCS, path('big.pdf'))).toBeNull();
    expect(onDisk(DOCS, path('big.pdf'))).toBeNull();

    const fits = await alice.client.storage
      .from(DOCS)
      .upload(path('fits.pdf'), new Blob([pdf(DOCS_LIMIT)], { type: 'application/pdf' }));
    expect(fits.error).toBeNull();
  });

  it('refuses an executable renamed .pdf and names what it is', async () => {
    const bucket = alice.client.storage.from(DOCS);
    const asRaw = await bucket.upload(path('licence.pdf'), elf(), {
      contentType: 'application/pdf',
    });
    expect(asRaw.error).toMatchObject({ status: 400, statusCode: '415' });
    expect(asRaw.error?.message).toBe(
      "mime type application/x-executable is not supported: the file's content is a Linux executable (ELF) (declared as application/pdf)",
    );

    const asForm = await bucket.upload(
      path('licence.pdf'),
      new Blob([pe()], { type: 'application/pdf' }),
    );
    expect(asForm.error).toMatchObject({ statusCode: '415' });
    expect(asForm.error?.message).toContain('Windows executable (PE)');
    expect(await rowOf(DOCS, path('licence.pdf'))).toBeNull();
    expect(onDisk(DOCS, path('licence.pdf'))).toBeNull();
  });

  it('stores a PNG declared as a PDF as the PNG it is, only where PNGs are allowed', async () => {
    const bucket = alice.client.storage.from(DOCS);
    const { error } = await bucket.upload(path('scan.pdf'), PNG, {
      contentType: 'application/pdf',
    });
    expect(error).toBeNull();
    expect((await bucket.info(path('scan.pdf'))).data?.contentType).toBe('image/png');
    const { data } = await bucket.download(path('scan.pdf'));
    expect(data?.type).toBe('image/png');

    const { error: setError } = await service.storage.updateBucket(DOCS, {
      public: false,
      allowedMimeTypes: ['application/pdf'],
    });
    expect(setError).toBeNull();
    try {
      const refused = await bucket.upload(path('scan2.pdf'), PNG, {
        contentType: 'application/pdf',
      });
      expect(refused.error).toMatchObject({ statusCode: '415' });
      expect(refused.error?.message).toContain('mime type image/png is not supported');
    } finally {
      await service.storage.updateBucket(DOCS, { public: false, allowedMimeTypes: DOCS_TYPES });
    }
  });

  it('refuses bytes that are not the recognisable type they claim', async () => {
    const { error } = await alice.client.storage
      .from(DOCS)
      .upload(path('fake.pdf'), text('just some text'), { contentType: 'application/pdf' });
    expect(error).toMatchObject({ statusCode: '415' });
    expect(error?.message).toContain("the file's content is not application/pdf");

    const wildcard = await service.storage.updateBucket(DOCS, {
      public: false,
      allowedMimeTypes: ['image/*'],
    });
    expect(wildcard.error).toBeNull();
    try {
      const webp = Uint8Array.from([
        ...text('RIFF'),
        0x24,
        0,
        0,
        0,
        ...text('WEBPVP8 '),
        ...new Uint8Array(24),
      ]);
      expect((await alice.client.storage.from(DOCS).upload(path('photo'), webp)).error).toBeNull();
      expect((await alice.client.storage.from(DOCS).info(path('photo'))).data?.contentType).toBe(
        'image/webp',
      );
      const doc = await alice.client.storage.from(DOCS).upload(path('doc'), pdf());
      expect(doc.error).toMatchObject({ statusCode: '415' });
    } finally {
      await service.storage.updateBucket(DOCS, { public: false, allowedMimeTypes: DOCS_TYPES });
    }
  });

  it('refuses anything over the global 50 MB limit', async () => {
    const big = new Uint8Array(50 * 1024 * 1024 + 1);
    const { error } = await service.storage
      .from(PRIVATE)
      .upload(`${alice.user.id}/huge.bin`, big, { contentType: 'application/octet-stream' });
    expect(error).toMatchObject({ statusCode: '413' });
    expect(onDisk(PRIVATE, `${alice.user.id}/huge.bin`)).toBeNull();
  });
});

describe('signed URLs', () => {
  const key = () => `${alice.user.id}/signed/doc.pdf`;
  const body = pdf(700);

  beforeAll(async () => {
    const { error } = await alice.client.storage.from(DOCS).upload(key(), body);
    expect(error).toBeNull();
  });

  it('serves the object to anyone holding the URL until it expires', async () => {
    const { data, error } = await alice.client.storage.from(DOCS).createSignedUrl(key(), 2);
    expect(error).toBeNull();
    expect(data?.signedUrl).toMatch(
      new RegExp(`^${testStack().apiUrl}/storage/v1/object/sign/${DOCS}/${key()}\\?token=`),
    );
    const ok = await fetch(data!.signedUrl);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/pdf');
    expect(new Uint8Array(await ok.arrayBuffer())).toEqual(body);

    await new Promise((resolve) => setTimeout(resolve, 3100));
    const late = await fetch(data!.signedUrl);
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({
      statusCode: '400',
      error: 'InvalidJWT',
      message: 'jwt expired',
    });
  });

  it('refuses a token for another object, and an access token used as one', async () => {
    const { apiUrl } = testStack();
    const other = `${alice.user.id}/signed/other.pdf`;
    expect((await alice.client.storage.from(DOCS).upload(other, pdf())).error).toBeNull();
    const { data } = await alice.client.storage.from(DOCS).createSignedUrl(other, 60);
    const token = new URL(data!.signedUrl).searchParams.get('token');
    for (const t of [token, alice.session.access_token]) {
      const res = await fetch(`${apiUrl}/storage/v1/object/sign/${DOCS}/${key()}?token=${t}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ statusCode: '400', message: 'Invalid signature' });
    }
  });

  it('signs many paths, only those the caller may read', async () => {
    const { data, error } = await alice.client.storage
      .from(DOCS)
      .createSignedUrls([key(), `${bob.user.id}/nothing.pdf`], 60, { download: 'permis.pdf' });
    expect(error).toBeNull();
    expect(data?.[0]).toMatchObject({ error: null, path: key() });
    expect(data?.[1]).toMatchObject({
      error: 'Either the object does not exist or you do not have access to it',
      signedUrl: null,
    });
    const res = await fetch(data![0]!.signedUrl!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('filename=permis.pdf');

    const bobs = await bob.client.storage.from(DOCS).createSignedUrls([key()], 60);
    expect(bobs.data?.[0]?.signedUrl).toBeNull();
  });
});

describe('public buckets', () => {
  it('serve objects to anyone without a token; private buckets do not', async () => {
    const key = `${alice.user.id}/cars/clio.png`;
    expect((await alice.client.storage.from(PUBLIC).upload(key, PNG)).error).toBeNull();

    const url = anon.storage.from(PUBLIC).getPublicUrl(key).data.publicUrl;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    const etag = res.headers.get('etag');
    expect(etag).toBe(`"${md5(PNG)}"`);
    expect((await fetch(url, { headers: { 'if-none-match': etag! } })).status).toBe(304);
    const part = await fetch(url, { headers: { range: 'bytes=1-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1-3/${PNG.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(PNG.subarray(1, 4));
    // Anyone may see that it exists, as on Supabase.
    expect((await anon.storage.from(PUBLIC).exists(key)).data).toBe(true);

    const hidden = await fetch(
      anon.storage.from(PRIVATE).getPublicUrl(`${alice.user.id}/notes/licence.txt`).data.publicUrl,
    );
    expect(hidden.status).toBe(400);
    expect(await hidden.json()).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
  });
});

describe('move, copy, list, info, exists, remove', () => {
  const dir = () => `${alice.user.id}/trip`;

  beforeAll(async () => {
    const bucket = alice.client.storage.from(PRIVATE);
    for (const name of ['b.txt', 'a.txt', 'sub/c.txt', 'sub/deeper/d.txt', 'zeta/e.txt']) {
      expect((await bucket.upload(`${dir()}/${name}`, text(name))).error).toBeNull();
    }
  });

  it('lists folders first, then files, like Supabase', async () => {
    const { data, error } = await alice.client.storage.from(PRIVATE).list(dir());
    expect(error).toBeNull();
    expect(data?.map((e) => [e.name, e.id === null])).toEqual([
      ['sub', true],
      ['zeta', true],
      ['a.txt', false],
      ['b.txt', false],
    ]);
    const file = data!.find((e) => e.name === 'a.txt')!;
    expect(file.metadata).toMatchObject({ size: 5, mimetype: 'text/plain;charset=UTF-8' });
    expect(file.created_at).toBeTruthy();

    const desc = await alice.client.storage
      .from(PRIVATE)
      .list(dir(), { sortBy: { column: 'name', order: 'desc' }, limit: 3 });
    expect(desc.data?.map((e) => e.name)).toEqual(['zeta', 'sub', 'b.txt']);
    const page = await alice.client.storage.from(PRIVATE).list(dir(), { limit: 2, offset: 2 });
    expect(page.data?.map((e) => e.name)).toEqual(['a.txt', 'b.txt']);
    const search = await alice.client.storage.from(PRIVATE).list(dir(), { search: 'b' });
    expect(search.data?.map((e) => e.name)).toEqual(['b.txt']);
    const sub = await alice.client.storage.from(PRIVATE).list(`${dir()}/sub/`);
    expect(sub.data?.map((e) => e.name)).toEqual(['deeper', 'c.txt']);
  });

  it('moves an object: row and bytes together', async () => {
    const bucket = alice.client.storage.from(PRIVATE);
    const { data, error } = await bucket.move(`${dir()}/a.txt`, `${dir()}/moved/a.txt`);
    expect(error).toBeNull();
    expect(data).toEqual({ message: 'Successfully moved' });
    expect((await bucket.exists(`${dir()}/a.txt`)).data).toBe(false);
    expect(await blobText((await bucket.download(`${dir()}/moved/a.txt`)).data)).toBe('a.txt');
    expect(onDisk(PRIVATE, `${dir()}/a.txt`)).toBeNull();

    const onto = await bucket.move(`${dir()}/b.txt`, `${dir()}/moved/a.txt`);
    expect(onto.error).toMatchObject({ statusCode: '409' });
    expect(onDisk(PRIVATE, `${dir()}/b.txt`)?.toString()).toBe('b.txt');
  });

  it('refuses moving into a folder the caller may not write, and leaves everything in place', async () => {
    const bucket = alice.client.storage.from(PRIVATE);
    const { error } = await bucket.move(`${dir()}/b.txt`, `${bob.user.id}/stolen.txt`);
    expect(error).toMatchObject({ statusCode: '403' });
    expect(onDisk(PRIVATE, `${dir()}/b.txt`)?.toString()).toBe('b.txt');
    expect(onDisk(PRIVATE, `${bob.user.id}/stolen.txt`)).toBeNull();
    expect(
      (await bob.client.storage.from(PRIVATE).move(`${dir()}/b.txt`, `${bob.user.id}/b.txt`)).error,
    ).toMatchObject({ statusCode: '404' });
  });

  it('copies an object, within a bucket and into another one that accepts it', async () => {
    const bucket = alice.client.storage.from(PRIVATE);
    const copy = await bucket.copy(`${dir()}/b.txt`, `${dir()}/b-copy.txt`);
    expect(copy).toEqual({ data: { path: `${PRIVATE}/${dir()}/b-copy.txt` }, error: null });
    expect(await blobText((await bucket.download(`${dir()}/b-copy.txt`)).data)).toBe('b.txt');
    expect(await blobText((await bucket.download(`${dir()}/b.txt`)).data)).toBe('b.txt');
    expect((await bucket.copy(`${dir()}/b.txt`, `${dir()}/b-copy.txt`)).error).toMatchObject({
      statusCode: '409',
    });

    const intoDocs = await bucket.copy(`${dir()}/b.txt`, `${alice.user.id}/b.txt`, {
      destinationBucket: DOCS,
    });
    expect(intoDocs.error).toMatchObject({ statusCode: '415' });
    expect(onDisk(DOCS, `${alice.user.id}/b.txt`)).toBeNull();
    expect(
      (await bob.client.storage.from(PRIVATE).copy(`${dir()}/b.txt`, `${bob.user.id}/b.txt`)).error,
    ).toMatchObject({ statusCode: '404' });
  });

  it('removes what the caller may delete, bytes included', async () => {
    const bucket = alice.client.storage.from(PRIVATE);
    const { data, error } = await bucket.remove([`${dir()}/b-copy.txt`, `${dir()}/nothing.txt`]);
    expect(error).toBeNull();
    expect(data?.map((o) => o.name)).toEqual([`${dir()}/b-copy.txt`]);
    expect(onDisk(PRIVATE, `${dir()}/b-copy.txt`)).toBeNull();
    expect((await bucket.exists(`${dir()}/b-copy.txt`)).data).toBe(false);
  });

  it('leaves nothing behind in the staging folder', () => {
    expect(readdirSync(join(storageDir, '#staging'))).toEqual([]);
  });
});

describe('buckets', () => {
  it('are managed by the service role', async () => {
    const created = await service.storage.createBucket(SCRATCH, {
      public: false,
      fileSizeLimit: '1MB',
      allowedMimeTypes: ['image/*'],
    });
    expect(created).toEqual({ data: { name: SCRATCH }, error: null });
    expect((await service.storage.createBucket(SCRATCH)).error).toMatchObject({
      statusCode: '409',
      message: 'The resource already exists',
    });

    const got = await service.storage.getBucket(SCRATCH);
    expect(got.data).toMatchObject({
      id: SCRATCH,
      name: SCRATCH,
      public: false,
      file_size_limit: 1_000_000,
      allowed_mime_types: ['image/*'],
    });
    const listed = await service.storage.listBuckets();
    expect(listed.data?.map((b) => b.id)).toEqual(expect.arrayContaining([SCRATCH, PRIVATE]));

    const updated = await service.storage.updateBucket(SCRATCH, {
      public: true,
      fileSizeLimit: 2048,
      allowedMimeTypes: null,
    });
    expect(updated).toEqual({ data: { message: 'Successfully updated' }, error: null });
    expect((await service.storage.getBucket(SCRATCH)).data).toMatchObject({
      public: true,
      file_size_limit: 2048,
      allowed_mime_types: null,
    });
    expect(
      (await service.storage.updateBucket(SCRATCH, { public: true, fileSizeLimit: '60MB' })).error,
    ).toMatchObject({ statusCode: '413' });
    expect(
      (
        await service.storage.updateBucket(SCRATCH, {
          public: true,
          allowedMimeTypes: ['not a type'],
        })
      ).error,
    ).toMatchObject({ statusCode: '415' });

    expect((await service.storage.from(SCRATCH).upload('x/y.txt', text('y'))).error).toBeNull();
    expect((await service.storage.deleteBucket(SCRATCH)).error).toMatchObject({
      statusCode: '409',
      message: 'The bucket you tried to delete is not empty',
    });
    expect(await service.storage.emptyBucket(SCRATCH)).toEqual({
      data: { message: 'Successfully emptied' },
      error: null,
    });
    expect(onDisk(SCRATCH, 'x/y.txt')).toBeNull();
    expect(await service.storage.deleteBucket(SCRATCH)).toEqual({
      data: { message: 'Successfully deleted' },
      error: null,
    });
    expect((await service.storage.getBucket(SCRATCH)).error).toMatchObject({
      statusCode: '404',
      message: 'Bucket not found',
    });
    expect(existsSync(join(storageDir, SCRATCH))).toBe(false);
  });

  it('are refused to users and visitors', async () => {
    const empty = `t-empty-${run}`;
    expect((await service.storage.createBucket(empty)).error).toBeNull();
    for (const client of [alice.client, anon]) {
      const name = `t-mine-${randomUUID().slice(0, 8)}`;
      expect((await client.storage.createBucket(name)).error).toMatchObject({
        statusCode: '403',
        message: 'new row violates row-level security policy',
      });
      expect((await client.storage.listBuckets()).data).toEqual([]);
      expect((await client.storage.getBucket(PRIVATE)).error).toMatchObject({ statusCode: '404' });
      expect((await client.storage.updateBucket(PRIVATE, { public: true })).error).toMatchObject({
        statusCode: '404',
      });
      expect((await client.storage.emptyBucket(PRIVATE)).error).toMatchObject({
        statusCode: '404',
      });
      expect((await client.storage.deleteBucket(empty)).error).toMatchObject({ statusCode: '404' });
      expect((await client.storage.deleteBucket(PRIVATE)).error).toMatchObject({
        statusCode: '409',
      });
    }
    expect((await service.storage.getBucket(empty)).data?.id).toBe(empty);
    expect((await service.storage.deleteBucket(empty)).error).toBeNull();
    expect((await service.storage.getBucket(PRIVATE)).data?.public).toBe(false);
    expect(await rowOf(PRIVATE, `${alice.user.id}/notes/licence.txt`)).not.toBeNull();
  });
});
