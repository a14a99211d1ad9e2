/**
 * The contract between the pieces of the local stack: the gateway mounts one handler per API
 * (`/auth/v1`, `/storage/v1`) and hands each the same context.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { ProjectSettings } from './settings.ts';
import type { SigningKeys } from './signing-keys.ts';

/** The claims of a Supabase access token (or of the anon / service-role API keys). */
export type JwtClaims = {
  role: 'anon' | 'authenticated' | 'service_role' | (string & {});
  sub?: string;
  email?: string;
  phone?: string;
  aud?: string | string[];
  exp?: number;
  iat?: number;
  iss?: string;
  session_id?: string;
  app_metadata?: Record<string, unknown>;
  user_metadata?: Record<string, unknown>;
  aal?: string;
  is_anonymous?: boolean;
  [key: string]: unknown;
};

export type QueryResult<T> = { rows: T[]; rowCount: number };

/** Something that runs SQL with `$1` parameters: a pooled connection or a transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export interface Db extends Queryable {
  /** Runs `fn` inside BEGIN … COMMIT (ROLLBACK when it throws) on one connection. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in a transaction as PostgREST would for these claims: `set local role` to the
   * claims' role and `request.jwt.claims` (and `request.jwt.claim.*`) set locally, so RLS
   * policies and `auth.uid()` see exactly what they see behind PostgREST. `null` means anon.
   */
  asClaims<T>(
    claims: JwtClaims | null,
    fn: (q: Queryable) => Promise<T>,
    /** The request's headers, as `request.headers` (storage-api sets them for RLS). */
    headers?: Record<string, string>,
  ): Promise<T>;
  close(): Promise<void>;
}

export type Mail = { to: string; subject: string; text: string; html?: string; from?: string };

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export type StackConfig = {
  /** Public URL of the API gateway, e.g. http://localhost:54321 */
  apiUrl: string;
  /** Origin(s) of the app allowed by CORS, e.g. http://localhost:4173 */
  appOrigins: string[];
  /** Where the app lives (used in mails: password reset links). */
  siteUrl: string;
  /** The legacy HS256 secret: signs the anon and service-role keys and storage's signed URLs. */
  jwtSecret: string;
  /** The ES256 signing keys: sign access tokens; with the secret, verify every token (JWKS). */
  signingKeys: SigningKeys;
  anonKey: string;
  serviceRoleKey: string;
  /** Access-token lifetime in seconds (GoTrue's JWT_EXP, 3600 by default). */
  jwtExpiry: number;
  /** The [auth] settings of supabase/config.toml (with a test stack's overrides). */
  auth: ProjectSettings['auth'];
  /** Where storage keeps object bytes (`<dir>/<bucket>/<name>`). */
  storageDir: string;
};

export type ServiceContext = {
  db: Db;
  config: StackConfig;
  mailer: Mailer;
  log: (message: string) => void;
};

/**
 * A mounted API. `path` is the request path after the mount point (e.g. `/token` for
 * `/auth/v1/token`), without the query string; `url` is the full parsed URL.
 * The gateway has already checked the `apikey` header and answered CORS preflights.
 */
export type ApiHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  url: URL,
) => Promise<void>;

export type ApiFactory = (ctx: ServiceContext) => ApiHandler;
