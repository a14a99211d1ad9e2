/**
 * Request bodies: an upload streamed to a staging file (raw bytes, or the first file part of a
 * multipart form, as supabase-js sends a Blob), counted, hashed and cut off at the size limit;
 * and small JSON bodies.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import Busboy from '@fastify/busboy';

import { FILE_SNIFF_BYTES } from '../../../src/domain/file-sniff.ts';
import { holdsUnstorableText, jsonTooDeep } from '../gateway/gateway-guards.ts';

import { ERRORS } from './errors.ts';

/** Bodies larger than this are not even drained: the connection is closed after the answer. */
export const DRAIN_LIMIT = 128 * 1024 * 1024;
const MAX_JSON_BODY = 1024 * 1024;

export type ReceivedUpload = {
  size: number;
  /** MD5 of the bytes, hex (S3's ETag of a single-part upload). */
  md5: string;
  /** The first FILE_SNIFF_BYTES bytes, for type detection. */
  head: Uint8Array;
  /** The content type the client declared (file part's type, or the Content-Type header). */
  declaredType: string | undefined;
  /** `max-age=3600`-style, from the form's cacheControl field or the Cache-Control header. */
  cacheControl: string;
  /** Custom metadata (form field `metadata`, JSON; or header `x-metadata`, base64 JSON). */
  userMetadata: Record<string, unknown> | null;
};

/** Thrown (after the body was consumed) when the file exceeds the limit. */
export class TooLarge extends Error {}

/** Counts, hashes and keeps the head of the bytes it passes on; stops writing past `limit`. */
class Sink extends Writable {
  size = 0;
  tooLarge = false;
  private readonly hash = createHash('md5');
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;

  constructor(
    private readonly out: Writable,
    private readonly limit: number,
  ) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    this.size += chunk.length;
    if (this.tooLarge || this.size > this.limit) {
      this.tooLarge = true;
      done();
      return;
    }
    this.hash.update(chunk);
    if (this.headLength < FILE_SNIFF_BYTES) {
      const part = chunk.subarray(0, FILE_SNIFF_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(part));
      this.headLength += part.length;
    }
    if (this.out.write(chunk)) done();
    else this.out.once('drain', () => done());
  }

  override _final(done: (error?: Error | null) => void) {
    this.out.end(done);
  }

  get head(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.headChunks));
  }

  get md5(): string {
    return this.hash.digest('hex');
  }
}

/** Passes the raw body on, failing with `TooLarge` past DRAIN_LIMIT bytes (never drain more). */
function drainGuard(): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > DRAIN_LIMIT ? new TooLarge() : null, chunk);
    },
  });
}

function cacheControlOf(value: string | undefined): string {
  const trimmed = value?.trim();
  if (!trimmed) return 'no-cache';
  return /^\d+$/.test(trimmed) ? `max-age=${trimmed}` : trimmed;
}

function parseMetadata(json: string | undefined): Record<string, unknown> | null {
  if (!json) return null;
  if (jsonTooDeep(json)) throw ERRORS.invalidRequest('The metadata is nested too deep');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw ERRORS.invalidRequest('The metadata is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw ERRORS.invalidRequest('The metadata must be a JSON object');
  }
  if (holdsUnstorableText(parsed)) {
    throw ERRORS.invalidRequest('The metadata holds a NUL character or a lone surrogate');
  }
  return parsed as Record<string, unknown>;
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Refuses at once a body whose announced length could not fit, before reading it. */
export function checkAnnouncedLength(req: IncomingMessage, limit: number): void {
  const length = Number(headerValue(req, 'content-length'));
  if (Number.isFinite(length) && length > DRAIN_LIMIT && length > limit) throw new TooLarge();
}

/**
 * Streams the upload in `req` to `target`. Throws `TooLarge` when the file is bigger than
 * `limit` bytes (the target then holds a partial file, for the caller to discard).
 */
export async function receiveUpload(
  req: IncomingMessage,
  target: string,
  limit: number,
): Promise<ReceivedUpload> {
  checkAnnouncedLength(req, limit);
  const contentType = headerValue(req, 'content-type') ?? '';
  const out = createWriteStream(target, { flags: 'wx' });

  if (!/^multipart\/form-data/i.test(contentType)) {
    const sink = new Sink(out, limit);
    try {
      await pipeline(req, drainGuard(), sink);
    } catch (error) {
      out.destroy();
      throw error;
    }
    if (sink.tooLarge) throw new TooLarge();
    const encodedMetadata = headerValue(req, 'x-metadata');
    return {
      size: sink.size,
      md5: sink.md5,
      head: sink.head,
      declaredType: contentType || undefined,
      cacheControl: cacheControlOf(headerValue(req, 'cache-control')),
      userMetadata: parseMetadata(
        encodedMetadata ? Buffer.from(encodedMetadata, 'base64').toString('utf8') : undefined,
      ),
    };
  }

  const fields = new Map<string, string>();
  type FilePart = { sink: Sink; declaredType: string; failure: Promise<unknown> };
  let file: FilePart | null = null;
  const busboy = Busboy({
    headers: { ...req.headers, 'content-type': contentType },
    limits: { files: 1, fields: 20, fieldSize: 64 * 1024, parts: 40 },
  });
  busboy.on('field', (name, value) => fields.set(name, value));
  busboy.on('file', (_field, stream, _filename, _encoding, mimeType) => {
    if (file) {
      stream.resume();
      return;
    }
    const sink = new Sink(out, limit);
    // Settles with the write's error (or null): never an unhandled rejection if parsing fails.
    const failure = pipeline(stream, sink).then(
      () => null,
      (error: unknown) => error,
    );
    file = { sink, declaredType: mimeType, failure };
  });
  try {
    await pipeline(req, drainGuard(), busboy);
  } catch (error) {
    out.destroy();
    if (error instanceof TooLarge) throw error;
    throw ERRORS.badRequest(`Malformed multipart body: ${(error as Error).message}`);
  }
  const received = file as FilePart | null;
  if (!received) {
    out.destroy();
    throw ERRORS.invalidRequest('No content provided');
  }
  const failure = await received.failure;
  if (failure) {
    out.destroy();
    throw failure;
  }
  if (received.sink.tooLarge) throw new TooLarge();
  return {
    size: received.sink.size,
    md5: received.sink.md5,
    head: received.sink.head,
    declaredType: received.declaredType || undefined,
    cacheControl: cacheControlOf(fields.get('cacheControl')),
    userMetadata: parseMetadata(fields.get('metadata')),
  };
}

/** Reads a JSON request body (at most 1 MiB); `{}` when there is none. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_JSON_BODY) throw ERRORS.badRequest('Request body is too large');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) return {};
  if (jsonTooDeep(text)) throw ERRORS.badRequest('The JSON body is nested too deep');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw ERRORS.badRequest("Body is not valid JSON but content-type is set to 'application/json'");
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw ERRORS.badRequest('body must be object');
  }
  if (holdsUnstorableText(parsed)) {
    throw ERRORS.badRequest('The body holds a NUL character or a lone surrogate');
  }
  return parsed as Record<string, unknown>;
}
