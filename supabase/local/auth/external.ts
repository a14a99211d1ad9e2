/**
 * OAuth, SSO and id_token sign-in need outside providers that the local stack cannot reach: they
 * answer GoTrue's errors for a provider that is not enabled (docs/auth.md, "OAuth and SSO").
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { AuthFailure, badRequest, stringField } from './http.ts';
import type { AuthService } from './service.ts';

/** GoTrue's built-in OAuth providers (internal/api/external.go Provider). */
const OAUTH_PROVIDERS = new Set([
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'kakao',
  'keycloak',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'slack',
  'slack_oidc',
  'snapchat',
  'spotify',
  'twitch',
  'twitter',
  'workos',
  'zoom',
]);

/** The issuers of id_token sign-in (internal/api/token_oidc.go). */
const OIDC_ISSUERS: Record<string, string> = {
  apple: 'https://appleid.apple.com',
  google: 'https://accounts.google.com',
  azure: 'https://login.microsoftonline.com/common/v2.0',
  facebook: 'https://www.facebook.com',
  kakao: 'https://kauth.kakao.com',
};

/** GET /authorize?provider=…: every provider is disabled here (400 `validation_failed`). */
export async function handleAuthorize(
  _service: AuthService,
  _req: IncomingMessage,
  _res: ServerResponse,
  url: URL,
): Promise<void> {
  const provider = (url.searchParams.get('provider') ?? '').toLowerCase();
  throw badRequest(
    'validation_failed',
    OAUTH_PROVIDERS.has(provider)
      ? 'Unsupported provider: provider is not enabled'
      : `Unsupported provider: Provider ${provider} could not be found`,
  );
}

/** POST /token?grant_type=id_token {provider, id_token}: 400 `provider_disabled`. */
export function refuseIdToken(body: Record<string, unknown>): never {
  const provider = stringField(body, 'provider').toLowerCase();
  if (stringField(body, 'id_token') === '') {
    throw badRequest('validation_failed', 'id_token required');
  }
  const issuer = OIDC_ISSUERS[provider];
  if (!issuer) {
    throw badRequest('validation_failed', `Custom OIDC provider "${provider}" not allowed`);
  }
  throw badRequest('provider_disabled', `Provider (issuer "${issuer}") is not enabled`);
}

/** POST /sso: SAML is off (404 `saml_provider_disabled`, GoTrue's answer). */
export async function handleSso(): Promise<void> {
  throw new AuthFailure(404, 'saml_provider_disabled', 'SAML 2.0 is disabled');
}
