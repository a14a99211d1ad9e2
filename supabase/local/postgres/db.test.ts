// @vitest-environment node
import { describe, expect, it } from 'vitest';

import { claimSettings } from './db.ts';

describe('claimSettings', () => {
  it('sets the role and the claims as PostgREST does', () => {
    const claims = {
      role: 'authenticated',
      sub: 'u-1',
      email: 'a@b.c',
      aal: 'aal1',
      app_metadata: { role: 'admin' },
    };
    expect(claimSettings(claims)).toEqual([
      ['role', 'authenticated'],
      ['request.jwt.claims', JSON.stringify(claims)],
      ['request.jwt.claim.role', 'authenticated'],
      ['request.jwt.claim.sub', 'u-1'],
      ['request.jwt.claim.email', 'a@b.c'],
      ['request.jwt.claim.aal', 'aal1'],
    ]);
  });

  it('treats no claims as anon', () => {
    expect(claimSettings(null)).toEqual([
      ['role', 'anon'],
      ['request.jwt.claims', '{"role":"anon"}'],
      ['request.jwt.claim.role', 'anon'],
    ]);
  });

  it('refuses any role but the three API roles', () => {
    for (const role of ['postgres', 'authenticator', 'anon; drop table x', '', undefined, 7]) {
      expect(() => claimSettings({ role } as never)).toThrow(/Refusing to run as role/);
    }
    expect(claimSettings({ role: 'service_role' })[0]).toEqual(['role', 'service_role']);
  });
});
