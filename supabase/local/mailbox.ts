/**
 * The dev mailbox: every mail the local stack sends lands here instead of the internet. People
 * read it in the browser at `/mailbox` on the API gateway; tests read it as JSON at
 * `/mailbox/api/messages`. A relay moves what the database queues in `internal.mail_outbox`
 * (guest notifications written by triggers) into it.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname } from 'node:path';

import type { Db, Mail, Mailer } from './context.ts';

export type StoredMail = Mail & { id: string; createdAt: string };

/** The mailbox keeps the latest mails only. */
const MAX_MAILS = 500;

export class Mailbox implements Mailer {
  private mails: StoredMail[] = [];
  private writing: Promise<void> = Promise.resolve();

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
    if (!mail.to || !mail.subject) throw new Error('A mail needs a recipient and a subject.');
    this.mails.push({ ...mail, id: randomUUID(), createdAt: new Date().toISOString() });
    if (this.mails.length > MAX_MAILS) this.mails.splice(0, this.mails.length - MAX_MAILS);
    await this.persist();
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

  /** Writes are serialised and atomic (temp file + rename). */
  private persist(): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    const snapshot = JSON.stringify(this.mails, null, 1);
    this.writing = this.writing.then(async () => {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(`${file}.tmp`, snapshot);
      await rename(`${file}.tmp`, file);
    });
    return this.writing;
  }

  /**
   * Serves `/mailbox` (HTML) and `/mailbox/api/messages` (JSON). `path` is the path after
   * `/mailbox`.
   */
  async handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
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

/**
 * Sends what the database queued in `internal.mail_outbox` (to_email, subject, body_text,
 * created_at, sent_at; optional body_html) and marks it sent, once a second. The rows are
 * claimed and marked in the transaction that delivers them, so a failed delivery is retried and
 * no mail goes out twice. Waits quietly while the table does not exist.
 */
export function startMailRelay(
  db: Db,
  mailer: Mailer,
  log: (message: string) => void,
  intervalMs = 1000,
): { stop(): Promise<void>; flush(): Promise<number> } {
  let stopped = false;
  let running: Promise<number> = Promise.resolve(0);
  let lastError = '';

  async function tick(): Promise<number> {
    const exists = await db.query<{ present: boolean }>(
      "select to_regclass('internal.mail_outbox') is not null as present",
    );
    if (!exists.rows[0]?.present) return 0;
    return db.tx(async (q) => {
      const { rows } = await q.query<{ mail: Record<string, unknown> }>(
        `update internal.mail_outbox o set sent_at = now()
           where o.ctid in (
             select ctid from internal.mail_outbox
              where sent_at is null order by created_at limit 50 for update skip locked)
         returning to_jsonb(o) as mail`,
      );
      for (const { mail } of rows) {
        await mailer.send({
          to: String(mail.to_email ?? ''),
          subject: String(mail.subject ?? ''),
          text: String(mail.body_text ?? ''),
          ...(typeof mail.body_html === 'string' ? { html: mail.body_html } : {}),
        });
      }
      return rows.length;
    });
  }

  function run(): Promise<number> {
    running = running
      .then(tick)
      .then((sent) => {
        lastError = '';
        return sent;
      })
      .catch((error: Error) => {
        if (error.message !== lastError) log(`mail relay: ${error.message}`);
        lastError = error.message;
        return 0;
      });
    return running;
  }

  const timer = setInterval(() => {
    if (!stopped) void run();
  }, intervalMs);
  timer.unref();

  return {
    /** Delivers what is queued now (tests call it instead of waiting a second). */
    flush: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
