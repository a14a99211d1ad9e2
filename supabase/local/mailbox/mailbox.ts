/**
 * The dev mailbox: every mail the local stack sends lands here instead of the internet. People
 * read it in the browser at `/mailbox` on the API gateway; tests read it as JSON at
 * `/mailbox/api/messages`. It is also the local mail *transport*: an HTTP API shaped like a mail
 * provider's (`POST /mailbox/api/emails`, Resend's request and answers), which the Edge
 * Functions call with the MAIL_API_URL and MAIL_API_KEY secrets, as they call the provider in
 * production.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname } from 'node:path';

import type { Mail, Mailer } from '../context.ts';

export type StoredMail = Mail & { id: string; createdAt: string };

/** The mailbox keeps the latest mails only. */
const MAX_MAILS = 500;
/** How long an Idempotency-Key is remembered (Resend: 24 hours). */
const IDEMPOTENCY_MS = 24 * 3600 * 1000;
const MAX_SEND_BYTES = 1024 * 1024;
/** Mails a batch request may hold (Resend: 100), and its size. */
const MAX_BATCH = 100;
const MAX_BATCH_BYTES = 8 * 1024 * 1024;
const PERSIST_GATHER_MS = 100;

export class Mailbox implements Mailer {
  private mails: StoredMail[] = [];
  private writing: Promise<void> = Promise.resolve();
  /** The write not started yet: it will include any change made now. */
  private nextWrite: Promise<void> | null = null;
  private readonly sentByKey = new Map<string, { answer: unknown; hash: string; at: number }>();
  /** The key `POST /api/emails` requires as `Authorization: Bearer <key>` (null: refused). */
  apiKey: string | null = null;

  /** `file`: where mails survive restarts (`null` = memory only). */
  constructor(private readonly file: string | null) {
    if (file && existsSync(file)) {
      try {
        const saved: unknown = JSON.parse(readFileSync(file, 'utf8'));
        if (Array.isArray(saved)) this.mails = saved as StoredMail[];
      } catch {
        // A damaged file only loses old dev mail.
      }
    }
  }

  async send(mail: Mail): Promise<void> {
    await this.store(mail);
  }

  private async store(mail: Mail): Promise<string> {
    if (!mail.to || !mail.subject) throw new Error('A mail needs a recipient and a subject.');
    const id = randomUUID();
    this.mails.push({ ...mail, id, createdAt: new Date().toISOString() });
    if (this.mails.length > MAX_MAILS) this.mails.splice(0, this.mails.length - MAX_MAILS);
    // Stored (and listed) now, on disk within PERSIST_GATHER_MS: a provider answers once it has
    // accepted a mail, and a sender waiting for the disk sent 50 mails a second at most.
    void this.persist();
    return id;
  }

  /** Resolves once every stored change is on disk. */
  flushed(): Promise<void> {
    return this.writing;
  }

  /**
   * `POST /api/emails`: `{from, to, subject, text?, html?}` with `Authorization: Bearer <key>`,
   * answered `{id}`. `POST /api/emails/batch`: a list of 1 to 100 of them, answered `{data: [{id}]}`;
   * one invalid mail refuses the whole request (422), unless `x-batch-validation: permissive`:
   * then the valid ones are stored and the others answered in `errors: [{index, message}]`, and
   * `data` lists the stored ones in order. The same `Idempotency-Key` with the same request
   * within 24 h answers the first answer and stores nothing (a retried send is not sent twice);
   * with another request, 409.
   */
  private async receive(req: IncomingMessage, res: ServerResponse, batch: boolean): Promise<void> {
    const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const expected = this.apiKey ?? '';
    if (!given)
      return providerError(
        res,
        401,
        'missing_api_key',
        'Missing API key in the authorization header',
      );
    if (
      !expected ||
      given.length !== expected.length ||
      !timingSafeEqual(Buffer.from(given), Buffer.from(expected))
    ) {
      return providerError(res, 403, 'invalid_api_key', 'API key is invalid');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const limit = batch ? MAX_BATCH_BYTES : MAX_SEND_BYTES;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > limit) return providerError(res, 413, 'validation_error', 'Request is too large');
      chunks.push(chunk as Buffer);
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return providerError(res, 422, 'validation_error', 'The body is not valid JSON');
    }
    let checked: Array<Mail[] | string>;
    if (batch) {
      if (!Array.isArray(body) || body.length < 1 || body.length > MAX_BATCH) {
        return providerError(
          res,
          422,
          'validation_error',
          `The body must be a list of 1 to ${MAX_BATCH} emails.`,
        );
      }
      checked = body.map(validMail);
      const permissive = req.headers['x-batch-validation'] === 'permissive';
      const invalid = checked.findIndex((mail) => typeof mail === 'string');
      if (!permissive && invalid >= 0) {
        return providerError(
          res,
          422,
          'validation_error',
          `emails[${invalid}]: ${checked[invalid]}`,
        );
      }
    } else {
      const mail = validMail(body);
      if (typeof mail === 'string') return providerError(res, 422, 'validation_error', mail);
      checked = [mail];
    }

    const key =
      typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    const hash = createHash('sha256')
      .update(batch ? 'batch\n' : 'single\n')
      .update(raw)
      .digest('hex');
    const now = Date.now();
    // Keys are kept in the order they came (a Map's): the expired ones are first.
    for (const [k, entry] of this.sentByKey) {
      if (now - entry.at <= IDEMPOTENCY_MS) break;
      this.sentByKey.delete(k);
    }
    if (key) {
      const previous = this.sentByKey.get(key);
      if (previous && previous.hash !== hash) {
        return providerError(
          res,
          409,
          'invalid_idempotent_request',
          'Same idempotency key used with a different request payload.',
        );
      }
      if (previous) return json(res, 200, previous.answer);
    }
    const data: Array<{ id: string }> = [];
    const errors: Array<{ index: number; message: string }> = [];
    for (const [index, mail] of checked.entries()) {
      if (typeof mail === 'string') {
        errors.push({ index, message: mail });
        continue;
      }
      let id = '';
      for (const each of mail) id = await this.store(each);
      data.push({ id });
    }
    const answer = batch
      ? { data, ...(req.headers['x-batch-validation'] === 'permissive' ? { errors } : {}) }
      : data[0]!;
    if (key) this.sentByKey.set(key, { answer, hash, at: now });
    return json(res, 200, answer);
  }

  /** Newest first; `to` filters by recipient (case-insensitive). */
  list(to?: string | null): StoredMail[] {
    const wanted = to?.trim().toLowerCase();
    return this.mails
      .filter((mail) => !wanted || mail.to.toLowerCase() === wanted)
      .slice()
      .reverse();
  }

  get(id: string): StoredMail | undefined {
    return this.mails.find((mail) => mail.id === id);
  }

  async clear(): Promise<void> {
    this.mails = [];
    await this.persist();
  }

  /**
   * Writes are serialised and atomic (temp file + rename), and gathered: the changes of
   * PERSIST_GATHER_MS share one write (at peak, a write of the whole list for each mail cost more
   * CPU than sending it). The promise resolves once a write including this change is done; a
   * failed write is reported and leaves the mails listed (a send does not wait for the disk, so
   * it must not fail, nor end the stack, for it), and the next change writes them all again.
   */
  private persist(): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    if (this.nextWrite) return this.nextWrite;
    const write = this.writing
      .then(async () => {
        await new Promise((resolve) => setTimeout(resolve, PERSIST_GATHER_MS));
        this.nextWrite = null; // changes from now on need the write after this one
        const snapshot = JSON.stringify(this.mails);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(`${file}.tmp`, snapshot);
        await rename(`${file}.tmp`, file);
      })
      .catch((error: Error) => {
        console.error(`dev mailbox: ${file} not written: ${error.message}`);
      });
    this.nextWrite = write;
    this.writing = write;
    return write;
  }

  /**
   * Serves `/mailbox` (HTML) and `/mailbox/api/messages` (JSON). `path` is the path after
   * `/mailbox`.
   */
  async handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    if (path === '/api/emails' || path === '/api/emails/batch') {
      if (method === 'POST') return this.receive(req, res, path === '/api/emails/batch');
      return json(res, 405, { message: 'Method not allowed' });
    }
    if (path === '/api/messages' || path === '/api/messages/') {
      if (method === 'GET') return json(res, 200, this.list(url.searchParams.get('to')));
      if (method === 'DELETE') {
        await this.clear();
        res.writeHead(204).end();
        return;
      }
      return json(res, 405, { message: 'Method not allowed' });
    }
    const apiMatch = /^\/api\/messages\/([\w-]+)$/.exec(path);
    if (apiMatch && method === 'GET') {
      const mail = this.get(apiMatch[1]!);
      return mail ? json(res, 200, mail) : json(res, 404, { message: 'Mail not found' });
    }
    if (method !== 'GET' && method !== 'HEAD')
      return json(res, 405, { message: 'Method not allowed' });
    if (path === '' || path === '/')
      return html(res, 200, listPage(this.list(url.searchParams.get('to'))));
    const pageMatch = /^\/([\w-]+)$/.exec(path);
    const mail = pageMatch ? this.get(pageMatch[1]!) : undefined;
    if (mail) return html(res, 200, mailPage(mail));
    return html(
      res,
      404,
      page(
        'Not found',
        '<p>This mail does not exist (any more).</p><p><a href="/mailbox">All mail</a></p>',
      ),
    );
  }
}

/**
 * One mail of a request, `{from, to, subject, text?, html?}`: a mail for each address of `to`,
 * or why it is refused.
 */
function validMail(body: unknown): Mail[] | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return 'The email must be an object.';
  }
  const { from, to: rawTo, subject, text, html } = body as Record<string, unknown>;
  const to = Array.isArray(rawTo) ? rawTo : [rawTo];
  if (typeof from !== 'string' || !from.trim()) return 'The `from` field is missing.';
  if (
    to.length < 1 ||
    to.length > 50 ||
    !to.every((a) => typeof a === 'string' && /^[^@\s]+@[^@\s]+$/.test(a))
  ) {
    return 'Invalid `to` field.';
  }
  if (typeof subject !== 'string' || !subject.trim()) return 'The `subject` field is missing.';
  if (typeof text !== 'string' && typeof html !== 'string') {
    return 'Either `text` or `html` is required.';
  }
  return (to as string[]).map((address) => ({
    from,
    to: address,
    subject,
    text: typeof text === 'string' ? text : '',
    ...(typeof html === 'string' && html ? { html } : {}),
  }));
}

/** An error as a mail provider (Resend) answers it. */
function providerError(res: ServerResponse, status: number, name: string, message: string): void {
  json(res, status, { statusCode: status, name, message });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  res.end(JSON.stringify(body));
}

function html(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; img-src * data:",
  });
  res.end(body);
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Escapes plain text and turns its http(s) URLs into links. */
export function linkify(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/g)) {
    out += escapeHtml(text.slice(last, match.index));
    const href = escapeHtml(match[0]);
    out += `<a href="${href}" target="_blank" rel="noopener">${href}</a>`;
    last = match.index + match[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0 auto; max-width: 48rem; padding: 1rem; line-height: 1.5; }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  ul { list-style: none; margin: 0; padding: 0; }
  li a { display: block; padding: .75rem; border-block-end: 1px solid #8884; text-decoration: none; color: inherit; }
  li a:hover, li a:focus { background: #8882; }
  .meta { font-size: .85rem; opacity: .75; overflow-wrap: anywhere; }
  .subject { font-weight: 600; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; font: inherit; }
  iframe { width: 100%; min-height: 60vh; border: 1px solid #8884; background: #fff; }
  nav { display: flex; gap: 1rem; margin-block-end: 1rem; }
`;

function page(title: string, body: string, refresh = false): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${refresh ? '<meta http-equiv="refresh" content="5">' : ''}
<title>${escapeHtml(title)} · Kiraa dev mailbox</title><style>${STYLE}</style></head>
<body>${body}</body></html>`;
}

function when(iso: string): string {
  return escapeHtml(iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'));
}

function listPage(mails: StoredMail[]): string {
  const items = mails
    .map(
      (mail) => `<li><a href="/mailbox/${mail.id}">
<div class="subject">${escapeHtml(mail.subject)}</div>
<div class="meta">To ${escapeHtml(mail.to)} · ${when(mail.createdAt)}</div></a></li>`,
    )
    .join('');
  return page(
    'Inbox',
    `<h1>Kiraa dev mailbox (${mails.length})</h1>
<p class="meta">Every mail the local stack sends, newest first. This page refreshes every 5 seconds.</p>
${mails.length ? `<ul>${items}</ul>` : '<p>No mail yet.</p>'}`,
    true,
  );
}

function mailPage(mail: StoredMail): string {
  const body = mail.html
    ? `<iframe title="Message" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(
        `<base target="_blank">${mail.html}`,
      )}"></iframe><details><summary>Plain text</summary><pre>${linkify(mail.text)}</pre></details>`
    : `<pre>${linkify(mail.text)}</pre>`;
  return page(
    mail.subject,
    `<nav><a href="/mailbox">← All mail</a></nav>
<h1>${escapeHtml(mail.subject)}</h1>
<p class="meta">To ${escapeHtml(mail.to)} · ${when(mail.createdAt)}</p>${body}`,
  );
}
