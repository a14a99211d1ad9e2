/**
 * Sign-ins that need an outside provider (OAuth, id_token, SSO) answer GoTrue's "not enabled"
 * errors through supabase-js (supabase/local/auth/external.ts); the identities of an account.
 */
import { describe, expect, it } from 'vitest';

import { newCustomer, visitor } from '../support/fixtures.ts';

describe('outside providers', () => {
  it("answers GoTrue's error for an OAuth provider that is not enabled", async () => {
    const { data, error } = await visitor().auth.signInWithOAuth({
      provider: 'google',
      options: { skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    const res = await fetch(data.url!, { headers: { 'x-supabase-api-version': '2024-01-01' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'validation_failed',
      message: 'Unsupported provider: provider is not enabled',
    });
  });

  it('refuses an id_token sign-in and SSO: the provider is not enabled', async () => {
    const idToken = await visitor().auth.signInWithIdToken({ provider: 'google', token: 'x.y.z' });
    expect(idToken.error).toMatchObject({ status: 400, code: 'provider_disabled' });
    const sso = await visitor().auth.signInWithSSO({ domain: 'kiraa.dz' });
    expect(sso.error).toMatchObject({ status: 404, code: 'saml_provider_disabled' });
  });

  it("lists the account's identities (the email one)", async () => {
    const { client, id, email } = await newCustomer();
    const { data, error } = await client.auth.getUserIdentities();
    expect(error).toBeNull();
    expect(data!.identities).toEqual([
      expect.objectContaining({
        provider: 'email',
        user_id: id,
        identity_data: expect.objectContaining({ email }),
      }),
    ]);
  });
});
