/**
 * check-upload: checks a booking file (licence, flight document) by its bytes, with the same
 * sniffing code as the app (src/domain/file-sniff.ts), and records the verdict
 * (edge_record_file_check). A file that is not a PDF, JPEG, PNG or WebP (whatever it claimed to
 * be) refuses the pending booking that uses it and is removed through the Storage API; staff
 * cannot accept a booking until its files are checked ok. Called by the storage webhook with the
 * stored object, and every minute by the schedule for files still unchecked. Car pictures (bucket
 * `cars`) go through the same check: a refused one leaves its car (edge_record_file_check) and is
 * removed. docs/functions.md.
 */
import { FILE_SNIFF_BYTES, verifyFileType } from '../../../src/domain/file-sniff.ts';
import { json, refuseUnlessService } from '../_shared/http.ts';
import { objectUrl, rpc, serviceHeaders } from '../_shared/rest.ts';

type Unchecked = {
  bucket_id: string;
  name: string;
  mimetype: string | null;
  allowed_mime_types: string[] | null;
};

type Payload = { type?: string; record?: { bucket_id?: unknown; name?: unknown } };

/** The first bytes of an object, or null when it is not there (any more). */
async function readHead(bucket: string, name: string): Promise<Uint8Array | null> {
  const res = await fetch(objectUrl('object/authenticated', bucket, name), {
    headers: { ...serviceHeaders(), range: `bytes=0-${FILE_SNIFF_BYTES - 1}` },
  });
  if (res.status === 400 || res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  if (!res.ok) throw new Error(`storage answered ${res.status} for ${bucket}/${name}`);
  const head = new Uint8Array(FILE_SNIFF_BYTES);
  let size = 0;
  const reader = res.body!.getReader();
  while (size < FILE_SNIFF_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    const take = value.subarray(0, FILE_SNIFF_BYTES - size);
    head.set(take, size);
    size += take.length;
  }
  await reader.cancel();
  return head.subarray(0, size);
}

async function removeObject(bucket: string, name: string): Promise<void> {
  const res = await fetch(objectUrl('object', bucket, name), {
    method: 'DELETE',
    headers: serviceHeaders(),
  });
  await res.body?.cancel();
  if (!res.ok && res.status !== 404) {
    throw new Error(`storage refused to remove ${bucket}/${name}: ${res.status}`);
  }
}

async function check(file: Unchecked) {
  const head = await readHead(file.bucket_id, file.name);
  if (!head) return null;
  const verdict =
    head.length === 0
      ? ({ ok: false, reason: 'empty', detected: null } as const)
      : verifyFileType(head, file.mimetype, file.allowed_mime_types ?? []);
  const recorded = await rpc<{ refused_bookings: string[] }>('edge_record_file_check', {
    bucket: file.bucket_id,
    file_name: file.name,
    verdict: verdict.ok ? 'ok' : 'rejected',
    detected_type: verdict.detected?.mime ?? null,
    reason: verdict.ok ? null : verdict.reason,
  });
  if (!verdict.ok) {
    await removeObject(file.bucket_id, file.name);
    console.info(
      `check-upload: refused ${file.bucket_id}/${file.name} (${verdict.reason}${verdict.detected ? `: ${verdict.detected.label}` : ''}); bookings refused: ${recorded.refused_bookings.length}`,
    );
  }
  return {
    bucket_id: file.bucket_id,
    name: file.name,
    verdict: verdict.ok ? 'ok' : 'rejected',
    refused_bookings: recorded.refused_bookings,
  };
}

Deno.serve(async (req) => {
  const refused = refuseUnlessService(req);
  if (refused) return refused;
  let payload: Payload = {};
  try {
    payload = (await req.json()) as Payload;
  } catch {
    // An empty body is a sweep.
  }
  const record = payload.record;
  const one = typeof record?.bucket_id === 'string' && typeof record?.name === 'string';
  const files = await rpc<Unchecked[]>('edge_unchecked_files', {
    bucket: one ? record!.bucket_id : null,
    file_name: one ? record!.name : null,
    batch: 20,
  });
  const results = [];
  for (const file of files) {
    const result = await check(file);
    if (result) results.push(result);
  }
  return json({ checked: results });
});
