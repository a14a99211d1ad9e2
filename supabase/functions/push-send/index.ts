/**
 * push-send: sends what the database queued in `internal.push_outbox` (a customer's new
 * notification, a guest booking's new status) as Web Push messages. Called by the outbox's webhook
 * and every minute by the schedule, always with the service-role key; messages are leased with
 * `for update skip locked` (edge_claim_push) and settled with the push service's answer
 * (edge_settle_push): 201 sent; 404/410 the subscription is gone (deleted); 429, 5xx, 401/403 or
 * no answer retried with backoff; any other refusal given up. docs/functions.md.
 *
 * Encryption (RFC 8291, aes128gcm) and the VAPID token (RFC 8292) are npm `web-push`'s
 * `generateRequestDetails`; the request is sent with `fetch` (its `sendNotification` uses Node's
 * https module). Endpoints are URLs a visitor gave: besides the database's list of push services,
 * this function checks the host again and never follows a redirect.
 */
import webpush from 'npm:web-push@3.6.7';

import { env, json, refuseUnlessService } from '../_shared/http.ts';
import { rpc } from '../_shared/rest.ts';

type Message = {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  payload: unknown;
  topic: string | null;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  ttl: number;
  attempts: number;
};

type Outcome = 'sent' | 'retry' | 'failed' | 'gone';

const BATCH = 20;
const BUDGET_MS = 20_000;
const SEND_TIMEOUT_MS = 10_000;
/** The push services of the major browsers (host suffixes); PUSH_ALLOWED_HOSTS replaces it. */
const DEFAULT_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
];

function allowedHosts(): string[] {
  const configured = Deno.env.get('PUSH_ALLOWED_HOSTS');
  return configured
    ? configured
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean)
    : DEFAULT_HOSTS;
}

/** https on a known push service, or the local stack's own push service (PUSH_LOCAL_ORIGIN). */
export function endpointAllowed(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const local = Deno.env.get('PUSH_LOCAL_ORIGIN');
  if (local && url.origin === new URL(local).origin && url.pathname.startsWith('/push/notify/')) {
    return true;
  }
  if (url.protocol !== 'https:' || (url.port !== '' && url.port !== '443')) return false;
  const host = url.hostname.toLowerCase();
  return allowedHosts().some((h) => host === h || host.endsWith(`.${h}`));
}

function classify(status: number): Outcome {
  if (status >= 200 && status < 300) return 'sent';
  if (status === 404 || status === 410) return 'gone';
  if (status === 429 || status >= 500 || status === 401 || status === 403 || status === 408) {
    return 'retry';
  }
  return 'failed';
}

async function send(
  message: Message,
): Promise<{ outcome: Outcome; status?: number; error?: string }> {
  if (!endpointAllowed(message.endpoint)) {
    return { outcome: 'failed', error: 'endpoint of no known push service' };
  }
  const details = webpush.generateRequestDetails(
    { endpoint: message.endpoint, keys: { p256dh: message.p256dh, auth: message.auth } },
    JSON.stringify(message.payload),
    {
      vapidDetails: {
        subject: env('VAPID_SUBJECT'),
        publicKey: env('VAPID_PUBLIC_KEY'),
        privateKey: env('VAPID_PRIVATE_KEY'),
      },
      TTL: message.ttl,
      urgency: message.urgency,
      ...(message.topic ? { topic: message.topic } : {}),
      contentEncoding: 'aes128gcm',
    },
  );
  try {
    const res = await fetch(details.endpoint, {
      method: details.method,
      headers: details.headers as Record<string, string>,
      body: Uint8Array.from(details.body as Uint8Array),
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    const text = await res.text().catch(() => '');
    const outcome = classify(res.status);
    return {
      outcome,
      status: res.status,
      ...(outcome === 'sent' ? {} : { error: `${res.status} ${text.slice(0, 300)}`.trim() }),
    };
  } catch (error) {
    return { outcome: 'retry', error: `no answer: ${(error as Error).message}`.slice(0, 300) };
  }
}

Deno.serve(async (req) => {
  const refused = refuseUnlessService(req);
  if (refused) return refused;
  await req.body?.cancel();

  const started = Date.now();
  const counts: Record<Outcome, number> = { sent: 0, retry: 0, failed: 0, gone: 0 };
  while (Date.now() - started < BUDGET_MS) {
    const messages = await rpc<Message[]>('edge_claim_push', { batch: BATCH });
    await Promise.all(
      messages.map(async (message) => {
        const result = await send(message);
        if (result.outcome !== 'sent') {
          console.error(`push-send: message ${message.id}: ${result.outcome}: ${result.error}`);
        }
        await rpc('edge_settle_push', {
          push_id: message.id,
          outcome: result.outcome,
          status_code: result.status ?? null,
          error: result.error ?? null,
        });
        counts[result.outcome]++;
      }),
    );
    if (messages.length < BATCH) break;
  }
  return json({
    sent: counts.sent,
    retried: counts.retry,
    failed: counts.failed,
    gone: counts.gone,
  });
});
