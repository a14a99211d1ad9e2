/**
 * The local auth API: the subset of GoTrue (Supabase Auth) v2 that supabase-js 2 and Kiraa use,
 * on Supabase's own `auth` tables. Mounted by the gateway at `/auth/v1`. Endpoints, error codes
 * and limits: docs/auth.md.
 */
import { handleInvite } from './invite.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { ApiFactory, ApiHandler } from '../context.ts';
import { handleGetUser, handleLogout, handleToken } from './accounts.ts';
import { handleSignup } from './signup.ts';
import { handleUpdateUser } from './user-update.ts';
import {
  handleCreateUser,
  handleDeleteUserById,
  handleGetUserById,
  handleListUsers,
  handleUpdateUserById,
} from './admin.ts';
import { handleChallengeFactor, handleEnrollFactor, handleVerifyFactor } from './mfa.ts';
import {
  handleAdminDeleteFactor,
  handleAdminListFactors,
  handleUnenrollFactor,
} from './mfa-unenrol.ts';
import { handleOtp, handleReauthenticate, handleResend } from './otp.ts';
import { handleAuthorize, handleSso } from './external.ts';
import { AuthFailure, notFound, sendFailure, sendJson, versionHeaders } from './http.ts';
import type { AuthOptions } from './options.ts';
import { handleGenerateLink, handleRecover } from './recovery.ts';
import { handleVerifyGet, handleVerifyPost } from './verify.ts';
import type { AuthService } from './service.ts';
import { createLimiters } from './service.ts';
import { requireAdmin } from './sessions.ts';

export type { AuthOptions } from './options.ts';

type Route = {
  method: string;
  path: RegExp;
  admin?: boolean;
  run: (
    service: AuthService,
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    params: string[],
  ) => Promise<void>;
};

/** GoTrue's GET /settings, from config.toml. */
const settingsOf = (service: AuthService) => ({
  ...SETTINGS,
  disable_signup: !service.ctx.config.auth.enableSignup,
  mailer_autoconfirm: !service.ctx.config.auth.email.enableConfirmations,
});

const SETTINGS = {
  external: {
    anonymous_users: false,
    apple: false,
    azure: false,
    discord: false,
    facebook: false,
    github: false,
    gitlab: false,
    google: false,
    email: true,
    phone: false,
  },
  disable_signup: false,
  mailer_autoconfirm: true,
  phone_autoconfirm: false,
  sms_provider: '',
  saml_enabled: false,
};

const HEALTH = {
  version: 'kiraa-local',
  name: 'GoTrue',
  description: 'GoTrue is a user registration and authentication API',
};

const ROUTES: Route[] = [
  {
    method: 'GET',
    path: /^\/health$/,
    run: async (_s, req, res) => sendJson(res, 200, HEALTH, versionHeaders(req)),
  },
  {
    method: 'GET',
    path: /^\/settings$/,
    run: async (s, req, res) => sendJson(res, 200, settingsOf(s), versionHeaders(req)),
  },
  {
    method: 'GET',
    path: /^\/\.well-known\/jwks\.json$/,
    // The signing keys' public halves (current, standby, previous), cached 10 min as GoTrue's.
    run: async (s, req, res) =>
      sendJson(res, 200, s.ctx.config.signingKeys.jwks(), {
        ...versionHeaders(req),
        'cache-control': 'public, max-age=600',
      }),
  },
  { method: 'POST', path: /^\/signup$/, run: handleSignup },
  { method: 'POST', path: /^\/token$/, run: handleToken },
  { method: 'POST', path: /^\/logout$/, run: handleLogout },
  { method: 'GET', path: /^\/user$/, run: (s, req, res) => handleGetUser(s, req, res) },
  { method: 'PUT', path: /^\/user$/, run: handleUpdateUser },
  { method: 'POST', path: /^\/recover$/, run: handleRecover },
  { method: 'POST', path: /^\/otp$/, run: handleOtp },
  { method: 'GET', path: /^\/authorize$/, run: handleAuthorize },
  { method: 'POST', path: /^\/sso$/, run: () => handleSso() },
  { method: 'POST', path: /^\/resend$/, run: handleResend },
  {
    method: 'GET',
    path: /^\/reauthenticate$/,
    run: (s, req, res) => handleReauthenticate(s, req, res),
  },
  { method: 'GET', path: /^\/verify$/, run: handleVerifyGet },
  { method: 'POST', path: /^\/verify$/, run: (s, req, res) => handleVerifyPost(s, req, res) },
  { method: 'POST', path: /^\/factors$/, run: (s, req, res) => handleEnrollFactor(s, req, res) },
  {
    method: 'POST',
    path: /^\/factors\/([^/]+)\/challenge$/,
    run: (s, req, res, _url, [id = '']) => handleChallengeFactor(s, req, res, id),
  },
  {
    method: 'POST',
    path: /^\/factors\/([^/]+)\/verify$/,
    run: (s, req, res, _url, [id = '']) => handleVerifyFactor(s, req, res, id),
  },
  {
    method: 'DELETE',
    path: /^\/factors\/([^/]+)$/,
    run: (s, req, res, _url, [id = '']) => handleUnenrollFactor(s, req, res, id),
  },
  {
    method: 'GET',
    path: /^\/admin\/users\/([^/]+)\/factors$/,
    admin: true,
    run: (s, req, res, _url, [id = '']) => handleAdminListFactors(s, req, res, id),
  },
  {
    method: 'DELETE',
    path: /^\/admin\/users\/([^/]+)\/factors\/([^/]+)$/,
    admin: true,
    run: (s, req, res, _url, [id = '', factorId = '']) =>
      handleAdminDeleteFactor(s, req, res, id, factorId),
  },
  { method: 'GET', path: /^\/admin\/users$/, admin: true, run: handleListUsers },
  {
    method: 'POST',
    path: /^\/admin\/users$/,
    admin: true,
    run: (s, req, res) => handleCreateUser(s, req, res),
  },
  {
    method: 'GET',
    path: /^\/admin\/users\/([^/]+)$/,
    admin: true,
    run: (s, req, res, _url, [id = '']) => handleGetUserById(s, req, res, id),
  },
  {
    method: 'PUT',
    path: /^\/admin\/users\/([^/]+)$/,
    admin: true,
    run: (s, req, res, _url, [id = '']) => handleUpdateUserById(s, req, res, id),
  },
  {
    method: 'DELETE',
    path: /^\/admin\/users\/([^/]+)$/,
    admin: true,
    run: (s, req, res, _url, [id = '']) => handleDeleteUserById(s, req, res, id),
  },
  { method: 'POST', path: /^\/admin\/generate_link$/, admin: true, run: handleGenerateLink },
  { method: 'POST', path: /^\/invite$/, admin: true, run: handleInvite },
];

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw notFound('not_found', 'Not found');
  }
}

/** The auth API with explicit options (the stack derives them from config.toml and the environment). */
export function configureAuthApi(options: AuthOptions): ApiFactory {
  return (ctx) => {
    const service: AuthService = { ctx, options, limits: createLimiters(options) };
    const handler: ApiHandler = async (req, res, path, url) => {
      try {
        const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
        let matched: { route: Route; params: string[] } | null = null;
        for (const route of ROUTES) {
          const match = route.path.exec(normalized);
          if (match && route.method === req.method) {
            matched = { route, params: match.slice(1).map(decodeSegment) };
            break;
          }
        }
        if (!matched) throw notFound('not_found', 'Not found');
        if (matched.route.admin) requireAdmin(req, ctx.config);
        await matched.route.run(service, req, res, url, matched.params);
      } catch (error) {
        if (res.headersSent) {
          ctx.log(`auth: ${req.method} ${path} failed after answering: ${String(error)}`);
          res.destroy();
          return;
        }
        if (error instanceof AuthFailure) {
          sendFailure(req, res, error);
          return;
        }
        ctx.log(`auth: ${req.method} ${path} failed: ${(error as Error).stack ?? String(error)}`);
        sendFailure(
          req,
          res,
          new AuthFailure(
            500,
            'unexpected_failure',
            'Unexpected failure, please check server logs for more information',
          ),
        );
      }
    };
    return handler;
  };
}
