import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  applyTheme,
  defaultTheme,
  getTheme,
  parseTheme,
  reloadThemeFromStorage,
  setModeSetting,
  setThemeSchema,
  THEME_STORAGE_KEY,
  toggleThemeMode,
  updateTheme,
} from '@/infra/theme';

function mockPrefersDark(dark: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: query.includes('dark') ? dark : false,
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
}

describe('theme settings', () => {
  beforeEach(() => {
    localStorage.clear();
    document.documentElement.className = '';
  });
  afterEach(() => vi.restoreAllMocks());

  it('has the seed defaults: topBarClassic layout, control size md, ltr', () => {
    expect(defaultTheme('light')).toEqual({
      themeSchema: 'default',
      direction: 'ltr',
      mode: 'light',
      modeSetting: 'system',
      panelExpand: false,
      controlSize: 'md',
      layout: { type: 'topBarClassic', sideNavCollapse: false },
    });
  });

  it('follows prefers-color-scheme on a first visit', () => {
    mockPrefersDark(true);
    expect(parseTheme(null).mode).toBe('dark');
    mockPrefersDark(false);
    expect(parseTheme(null).mode).toBe('light');
  });

  it('keeps the stored choice over the system preference', () => {
    mockPrefersDark(true);
    expect(parseTheme(JSON.stringify({ mode: 'light' })).mode).toBe('light');
    expect(parseTheme(JSON.stringify({ mode: 'light' })).modeSetting).toBe('light');
  });

  it('follows the system when the stored setting is `system`, whatever mode was stored', () => {
    mockPrefersDark(true);
    const parsed = parseTheme(JSON.stringify({ mode: 'light', modeSetting: 'system' }));
    expect(parsed).toMatchObject({ mode: 'dark', modeSetting: 'system' });
  });

  it('keeps a known colour theme and drops an unknown one', () => {
    expect(parseTheme(JSON.stringify({ themeSchema: 'orange' }), 'light').themeSchema).toBe(
      'orange',
    );
    expect(parseTheme(JSON.stringify({ themeSchema: 'pink' }), 'light').themeSchema).toBe(
      'default',
    );
  });

  it('applies and persists a colour theme and a mode setting', () => {
    const meta = document.createElement('meta');
    meta.name = 'theme-color';
    document.head.append(meta);
    setModeSetting('light');
    setThemeSchema('green');
    expect(document.documentElement.dataset.theme).toBe('green');
    expect(meta.content).toBe('#15803d');
    mockPrefersDark(true);
    setModeSetting('system');
    expect(getTheme()).toMatchObject({ mode: 'dark', modeSetting: 'system' });
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(JSON.parse(localStorage.getItem(THEME_STORAGE_KEY) ?? '{}')).toMatchObject({
      themeSchema: 'green',
      modeSetting: 'system',
    });
    meta.remove();
  });

  it('replaces malformed or unknown values with defaults, field by field', () => {
    expect(parseTheme('{not json', 'light')).toEqual(defaultTheme('light'));
    const parsed = parseTheme(
      JSON.stringify({
        mode: 'purple',
        direction: 'rtl',
        controlSize: 'xl',
        panelExpand: 'yes',
        layout: { type: 'blank', sideNavCollapse: true, previousType: 'nope' },
      }),
      'light',
    );
    expect(parsed).toEqual({
      ...defaultTheme('light'),
      direction: 'rtl',
      layout: { type: 'blank', sideNavCollapse: true },
    });
  });

  it('persists changes under `theme` and puts the dark class on <html>', () => {
    updateTheme({ mode: 'dark' });
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(JSON.parse(localStorage.getItem(THEME_STORAGE_KEY) ?? '{}')).toMatchObject({
      mode: 'dark',
      controlSize: 'md',
      layout: { type: 'topBarClassic' },
    });
    toggleThemeMode();
    expect(getTheme()).toMatchObject({ mode: 'light', modeSetting: 'light' });
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    reloadThemeFromStorage();
    expect(getTheme().mode).toBe('light');
  });

  it('sets the browser colour for the mode', () => {
    const meta = document.createElement('meta');
    meta.name = 'theme-color';
    document.head.append(meta);
    applyTheme({ ...defaultTheme('dark') });
    expect(meta.content).toBe('#0f172a');
    expect(document.documentElement.style.colorScheme).toBe('dark');
    meta.remove();
  });
});
