/**
 * A stand-in for the Supabase Management API, for `supabase config push` run offline: it answers
 * the calls the pinned CLI (npm `supabase` 3.1) makes for one project and records what it is sent.
 *
 * The calls, as the CLI made them against this stand-in (`--debug`): GET /v1/projects/{ref},
 * GET /v1/projects/{ref}/billing/addons, GET /v2/projects/{ref}/config (the project's settings in
 * config.toml's shape, under `data.attributes`), then one PATCH per section that differs:
 * /v1/projects/{ref}/postgrest, /v1/projects/{ref}/config/auth, /v1/projects/{ref}/config/storage.
 * The CLI checks every answer against its schema, so the PATCH answers carry every key:
 * management-api-auth-config.json holds the Auth config response's keys, taken from the schema
 * inside the CLI binary (nullable ones null).
 *
 * It plays a project on one plan: an Auth PATCH that enables a Team/Enterprise hook
 * (Password or MFA Verification Attempt) on a Free or Pro project is refused whole (402, nothing
 * applied), as the platform does (docs/deployment.md, "Plans").
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Plan = 'free' | 'pro' | 'team' | 'enterprise';

export type RecordedRequest = {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  /** The status the stand-in answered. */
  status: number;
};

export type ManagementApi = {
  url: string;
  requests: RecordedRequest[];
  /** The Auth settings the project holds now (what accepted PATCHes applied). */
  auth: Record<string, unknown>;
  stop(): Promise<void>;
};

const AUTH_CONFIG_KEYS = JSON.parse(
  readFileSync(new URL('./management-api-auth-config.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

/** Hooks the platform refuses below Team (Supabase docs, "Auth Hooks": available on plan). */
const TEAM_HOOKS = [
  'hook_password_verification_attempt_enabled',
  'hook_mfa_verification_attempt_enabled',
];

/** A new hosted project's settings, in the shape GET /v2/projects/{ref}/config answers. */
function freshProjectConfig(): Record<string, unknown> {
  return {
    api: { schemas: ['public', 'graphql_public'], extra_search_path: ['public', 'extensions'] },
    auth: {
      site_url: 'http://localhost:3000',
      captcha: { enabled: false },
      hook: {
        password_verification_attempt: { enabled: false },
        send_email: { enabled: false },
      },
    },
    storage: { file_size_limit: 52_428_800 },
  };
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : null;
}

export async function startManagementApi(plan: Plan): Promise<ManagementApi> {
  const requests: RecordedRequest[] = [];
  const auth: Record<string, unknown> = { ...AUTH_CONFIG_KEYS };
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
    return status;
  };

  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      const body = await readBody(req);
      const method = req.method ?? 'GET';
      const project = /^\/v[12]\/projects\/([a-z]{20})(\/.*)?$/.exec(path);
      let status: number;
      if (!project) {
        status = answer(res, 404, { message: `no route ${method} ${path}` });
      } else {
        const [, ref, rest = ''] = project;
        if (method === 'GET' && rest === '') {
          status = answer(res, 200, {
            id: ref,
            ref,
            name: 'kiraa',
            organization_id: 'kiraa-agency',
            region: 'eu-central-1',
            status: 'ACTIVE_HEALTHY',
            created_at: '2026-11-01T00:00:00Z',
            database: { host: `db.${ref}.supabase.co`, version: '17.6.1' },
          });
        } else if (method === 'GET' && rest === '/billing/addons') {
          status = answer(res, 200, { selected_addons: [], available_addons: [] });
        } else if (method === 'GET' && rest === '/config' && path.startsWith('/v2/')) {
          status = answer(res, 200, {
            data: { type: 'project_config', id: ref, attributes: freshProjectConfig() },
          });
        } else if (method === 'PATCH' && rest === '/postgrest') {
          status = answer(res, 200, {
            db_schema: 'public',
            db_extra_search_path: 'public,extensions',
            max_rows: 1000,
            db_pool: null,
            db_pool_acquisition_timeout: null,
            db_pool_max_lifetime: null,
            db_pool_max_idletime: null,
            ...body,
          });
        } else if (method === 'PATCH' && rest === '/config/auth') {
          const refused = TEAM_HOOKS.filter((key) => body?.[key] === true);
          if (refused.length > 0 && (plan === 'free' || plan === 'pro')) {
            status = answer(res, 402, {
              message: `${refused.join(', ')}: not available on the ${plan} plan; nothing was applied.`,
            });
          } else {
            Object.assign(auth, body);
            status = answer(res, 200, auth);
          }
        } else if (method === 'PATCH' && rest === '/config/storage') {
          status = answer(res, 200, { fileSizeLimit: 52_428_800, features: {}, ...body });
        } else {
          status = answer(res, 404, { message: `no route ${method} ${path}` });
        }
      }
      requests.push({ method, path, body, status });
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    auth,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
