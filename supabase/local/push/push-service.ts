/**
 * The local push service and the dev push inbox: what Google's, Mozilla's or Apple's push service
 * is to a browser, on the gateway at `/push`, so every Web Push message the stack sends is
 * received, checked and readable locally (docs/local-stack.md, "The dev push inbox").
 *
 * The protocol part is npm `web-push-testing`'s model (its `PushApiModel`): a subscription has its
 * own P-256 key pair and auth secret; a message must carry a valid ES256 VAPID token for the
 * subscription's application server key (RFC 8292) and is decrypted with the subscription's key
 * (RFC 8291, aes128gcm). What arrived is kept, decrypted, with its TTL, Urgency and Topic headers.
 *
 * - `POST /push/subscribe` `{applicationServerKey}` → `{endpoint, keys: {p256dh, auth}, clientHash}`
 *   (what `PushManager.subscribe` gives a page);
 * - `POST /push/notify/<hash>`: the endpoint. 201 received; 410 expired; 404 unknown; 400 refused
 *   (bad VAPID token, undecryptable body), as push services answer;
 * - `POST /push/api/expire/<hash>`: later messages answer 410 (an unsubscribed device);
 * - `POST /push/api/fail/<hash>` `{status, count}`: the next `count` messages answer `status`
 *   (an outage of the push service, for the retry tests);
 * - `GET /push/api/messages[?endpoint=…]` (newest first), `DELETE /push/api/messages`;
 * - `GET /push`: the inbox in a browser.
 */
import { createECDH } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

import { escapeHtml } from '../mailbox/mailbox.ts';

const require = createRequire(import.meta.url);

type ModelSubscription = {
  applicationServerKey: string;
  publicKey: string;
  subscriptionDh: ReturnType<typeof createECDH>;
  auth: string;
  isExpired: boolean;
};

type PushApiModel = {
  notifyUrl: string;
  subscriptions: Record<string, ModelSubscription>;
  messages: Record<string, string[]>;
  subscribe(options: Record<string, unknown>): Promise<{
    endpoint: string;
    keys: { p256dh: string; auth: string };
    clientHash: string;
  }>;
  handleNotification(
    clientHash: string,
    headers: Record<string, string | undefined>,
    body: Buffer,
  ): Promise<void>;
  expireSubscription(clientHash: string): void;
};

const { PushApiModel: Model, SubscriptionExpiredError } =
  require('web-push-testing/src/PushApiModel.js') as {
    PushApiModel: new () => PushApiModel;
    SubscriptionExpiredError: new () => Error;
  };

export type PushMessage = {
  id: number;
  endpoint: string;
  clientHash: string;
  receivedAt: string;
  ttl: number | null;
  urgency: string | null;
  topic: string | null;
  /** The decrypted body. */
  text: string;
  /** The body as JSON, when it is JSON. */
  json: unknown;
};

type Saved = {
  subscriptions: Array<{
    hash: string;
    applicationServerKey: string;
    privateKey: string;
    auth: string;
    isExpired: boolean;
  }>;
  messages: PushMessage[];
};

const MAX_MESSAGES = 500;
const MAX_BODY_BYTES = 8 * 1024;

export class PushService {
  private readonly model: PushApiModel = new Model();
  private messages: PushMessage[] = [];
  private nextId = 1;
  private readonly failures = new Map<string, { status: number; count: number }>();
  private writing: Promise<void> = Promise.resolve();
  /** Where endpoints point: `<gateway>/push/notify/`. */
  private base = '';

  /** `file`: where subscriptions and messages survive restarts (`null` = memory only). */
  constructor(private readonly file: string | null) {
    if (file && existsSync(file)) {
      try {
        const saved = JSON.parse(readFileSync(file, 'utf8')) as Saved;
        for (const s of saved.subscriptions ?? []) {
          const dh = createECDH('prime256v1');
          dh.setPrivateKey(Buffer.from(s.privateKey, 'base64'));
          this.model.subscriptions[s.hash] = {
            applicationServerKey: s.applicationServerKey,
            publicKey: dh.getPublicKey('base64'),
            subscriptionDh: dh,
            auth: s.auth,
            isExpired: s.isExpired,
          };
        }
        this.messages = saved.messages ?? [];
        this.nextId = Math.max(0, ...this.messages.map((m) => m.id)) + 1;
      } catch {
        // A damaged file only loses old dev pushes.
      }
    }
  }

  /** The gateway's address as the push-send function reaches it (127.0.0.1, as Vault's). */
  setBaseUrl(gatewayUrl: string): void {
    this.base = `${gatewayUrl.replace(/\/$/, '')}/push`;
    this.model.notifyUrl = `${this.base}/notify/`;
  }

  get origin(): URL {
    return new URL(this.base);
  }

  list(endpoint?: string | null): PushMessage[] {
    const all = [...this.messages].reverse();
    return endpoint ? all.filter((m) => m.endpoint === endpoint) : all;
  }

  async subscribe(applicationServerKey: string) {
    return this.model.subscribe({ applicationServerKey, userVisibleOnly: 'true' });
  }

  async handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    try {
      if (path === '/subscribe' && method === 'POST') {
        const body = JSON.parse((await readBody(req)).toString('utf8') || '{}') as {
          applicationServerKey?: string;
        };
        if (typeof body.applicationServerKey !== 'string') {
          return json(res, 400, { error: { message: 'applicationServerKey is required' } });
        }
        // web-push-testing wants userVisibleOnly as the string "true" (browsers take a boolean).
        const subscription = await this.model.subscribe({
          applicationServerKey: body.applicationServerKey,
          userVisibleOnly: 'true',
        });
        await this.persist();
        return json(res, 200, subscription);
      }
      const notify = /^\/notify\/([a-f0-9]{64})$/.exec(path);
      if (notify && method === 'POST') return await this.receive(req, res, notify[1]!);
      const expire = /^\/api\/expire\/([a-f0-9]{64})$/.exec(path);
      if (expire && method === 'POST') {
        if (!this.model.subscriptions[expire[1]!]) return json(res, 404, { message: 'Unknown' });
        this.model.expireSubscription(expire[1]!);
        await this.persist();
        return json(res, 200, { expired: true });
      }
      const fail = /^\/api\/fail\/([a-f0-9]{64})$/.exec(path);
      if (fail && method === 'POST') {
        const body = JSON.parse((await readBody(req)).toString('utf8') || '{}') as {
          status?: number;
          count?: number;
        };
        this.failures.set(fail[1]!, { status: body.status ?? 503, count: body.count ?? 1 });
        return json(res, 200, { failing: true });
      }
      if (path === '/api/messages' || path === '/api/messages/') {
        if (method === 'GET') return json(res, 200, this.list(url.searchParams.get('endpoint')));
        if (method === 'DELETE') {
          this.messages = [];
          await this.persist();
          res.writeHead(204).end();
          return;
        }
      }
      if ((path === '' || path === '/') && (method === 'GET' || method === 'HEAD')) {
        return html(res, inboxPage(this.list()));
      }
      return json(res, 404, { message: 'no Route matched with those values' });
    } catch (error) {
      return json(res, 400, { error: { message: (error as Error).message } });
    }
  }

  private async receive(req: IncomingMessage, res: ServerResponse, hash: string): Promise<void> {
    const body = await readBody(req);
    const subscription = this.model.subscriptions[hash];
    // Push services answer 404 for an endpoint they do not know (never subscribed, or lost).
    if (!subscription) return json(res, 404, { reason: 'Unknown subscription' });
    const failure = this.failures.get(hash);
    if (failure && failure.count > 0) {
      failure.count -= 1;
      return json(res, failure.status, { reason: 'Simulated outage of the push service' });
    }
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    try {
      await this.model.handleNotification(
        hash,
        {
          encoding: header('content-encoding'),
          encryption: header('encryption'),
          cryptoKey: header('crypto-key'),
          authorization: header('authorization'),
          ttl: header('ttl'),
        },
        body,
      );
    } catch (error) {
      if (error instanceof SubscriptionExpiredError) {
        return json(res, 410, { reason: 'Push subscription has unsubscribed or expired.' });
      }
      return json(res, 400, { error: { message: (error as Error).message } });
    }
    const received = this.model.messages[hash] ?? [];
    const text = received.pop() ?? '';
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    const ttl = Number(header('ttl'));
    this.messages.push({
      id: this.nextId++,
      endpoint: `${this.model.notifyUrl}${hash}`,
      clientHash: hash,
      receivedAt: new Date().toISOString(),
      ttl: Number.isFinite(ttl) ? ttl : null,
      urgency: header('urgency') ?? null,
      topic: header('topic') ?? null,
      text,
      json: parsed,
    });
    if (this.messages.length > MAX_MESSAGES) {
      this.messages.splice(0, this.messages.length - MAX_MESSAGES);
    }
    await this.persist();
    res.writeHead(201, { location: `${this.base}/api/messages` }).end();
  }

  private persist(): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    const saved: Saved = {
      subscriptions: Object.entries(this.model.subscriptions).map(([hash, s]) => ({
        hash,
        applicationServerKey: s.applicationServerKey,
        privateKey: s.subscriptionDh.getPrivateKey('base64'),
        auth: s.auth,
        isExpired: s.isExpired,
      })),
      messages: this.messages,
    };
    this.writing = this.writing.then(async () => {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(`${file}.tmp`, JSON.stringify(saved));
      await rename(`${file}.tmp`, file);
    });
    return this.writing.catch(() => {});
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // RFC 8030: a push service may refuse payloads over 4 KB; FCM takes 4 KB of plaintext.
    if (size > MAX_BODY_BYTES) throw new Error('Payload too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  res.end(JSON.stringify(body));
}

function html(res: ServerResponse, body: string): void {
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(body);
}

function inboxPage(messages: PushMessage[]): string {
  const items = messages
    .map(
      (m) =>
        `<li><pre>${escapeHtml(
          m.json ? JSON.stringify(m.json, null, 2) : m.text,
        )}</pre><div class="meta">${escapeHtml(m.receivedAt)} · TTL ${m.ttl ?? '?'} s · urgency ${escapeHtml(
          m.urgency ?? 'normal',
        )}${m.topic ? ` · topic ${escapeHtml(m.topic)}` : ''}<br>${escapeHtml(m.endpoint)}</div></li>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta http-equiv="refresh" content="5">
<title>Push inbox · Kiraa</title><style>
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0 auto; max-width: 48rem; padding: 1rem; line-height: 1.5; }
ul { list-style: none; margin: 0; padding: 0; } li { padding: .75rem 0; border-block-end: 1px solid #8884; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; } .meta { font-size: .85rem; opacity: .75; overflow-wrap: anywhere; }
</style></head><body><h1>Kiraa dev push inbox (${messages.length})</h1>
<p class="meta">Every Web Push message the local stack sent to the local push service, decrypted, newest first. This page refreshes every 5 seconds.</p>
${messages.length ? `<ul>${items}</ul>` : '<p>No push yet.</p>'}</body></html>`;
}
