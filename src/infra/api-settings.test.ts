import { describe, expect, it } from 'vitest';

import { apiSettings } from '@/infra/api-settings';

describe('apiSettings', () => {
  it('reads the URL without spaces or trailing slashes, and the key', () => {
    expect(
      apiSettings({
        VITE_SUPABASE_URL: ' https://ref.supabase.co// ',
        VITE_SUPABASE_ANON_KEY: ' public-key ',
      }),
    ).toEqual({ url: 'https://ref.supabase.co', anonKey: 'public-key' });
  });

  it('falls back to the local stack, and says when the key is missing', () => {
    expect(apiSettings({ VITE_SUPABASE_URL: '  ', PROD: true })).toEqual({
      url: 'http://localhost:54321',
      anonKey: undefined,
    });
  });
});
