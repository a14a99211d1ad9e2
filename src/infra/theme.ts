import { useSyncExternalStore } from 'react';

import type { Direction } from '@/domain/locale';

/**
 * Theme settings, persisted in localStorage under `theme` with the seed's fields (docs/product.md §3).
 * index.html applies `mode` and the language's direction before the first paint with a small
 * inline script that reads the same keys: keep the two in step (see docs/ui.md).
 */
export type ThemeMode = 'light' | 'dark';
/** What the person chose: a mode, or following the system's (prefers-color-scheme). */
export type ModeSetting = ThemeMode | 'system';
/** The colour themes (docs/ui.md, "Theme"): blue is `default`. */
export const THEME_SCHEMAS = ['default', 'green', 'purple', 'orange'] as const;
export type ThemeSchema = (typeof THEME_SCHEMAS)[number];
export const MODE_SETTINGS: readonly ModeSetting[] = ['light', 'dark', 'system'];
export type ControlSize = 'xs' | 'sm' | 'md' | 'lg';
export type LayoutType =
  | 'collapsibleSide'
  | 'stackedSide'
  | 'topBarClassic'
  | 'framelessSide'
  | 'contentOverlay'
  | 'blank';

export type ThemeSettings = {
  themeSchema: ThemeSchema;
  direction: Direction;
  /** The mode in effect (the system's when `modeSetting` is `system`). */
  mode: ThemeMode;
  modeSetting: ModeSetting;
  panelExpand: boolean;
  controlSize: ControlSize;
  layout: { type: LayoutType; sideNavCollapse: boolean; previousType?: LayoutType };
};

export const THEME_STORAGE_KEY = 'theme';

/** The browser colours of the two modes (`<meta name="theme-color">`, manifest). */
export const THEME_COLORS: Record<ThemeMode, string> = { light: '#1d4ed8', dark: '#0f172a' };
/** The light mode's browser colour of each colour theme (its primary, src/styles.css). */
export const SCHEMA_COLORS: Record<ThemeSchema, string> = {
  default: '#1d4ed8',
  green: '#15803d',
  purple: '#7e22ce',
  orange: '#c2410c',
};

export function isThemeSchema(value: unknown): value is ThemeSchema {
  return THEME_SCHEMAS.includes(value as ThemeSchema);
}

export function isModeSetting(value: unknown): value is ModeSetting {
  return MODE_SETTINGS.includes(value as ModeSetting);
}

const controlSizes: readonly ControlSize[] = ['xs', 'sm', 'md', 'lg'];
const layoutTypes: readonly LayoutType[] = [
  'collapsibleSide',
  'stackedSide',
  'topBarClassic',
  'framelessSide',
  'contentOverlay',
  'blank',
];

function prefersDark(): boolean {
  return (
    typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches
  );
}

export function defaultTheme(mode: ThemeMode = prefersDark() ? 'dark' : 'light'): ThemeSettings {
  return {
    themeSchema: 'default',
    direction: 'ltr',
    mode,
    modeSetting: 'system',
    panelExpand: false,
    controlSize: 'md',
    layout: { type: 'topBarClassic', sideNavCollapse: false },
  };
}

/**
 * Reads the stored settings; anything missing or malformed takes its default, so an old or
 * hand-edited value never breaks the app. The first visit follows prefers-color-scheme.
 */
export function parseTheme(raw: string | null, fallbackMode?: ThemeMode): ThemeSettings {
  const base = defaultTheme(fallbackMode);
  if (!raw) return base;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return base;
  }
  if (!value || typeof value !== 'object') return base;
  const v = value as Partial<Record<keyof ThemeSettings, unknown>>;
  const layout = (v.layout && typeof v.layout === 'object' ? v.layout : {}) as Record<
    string,
    unknown
  >;
  const isLayout = (x: unknown): x is LayoutType => layoutTypes.includes(x as LayoutType);
  const storedMode = v.mode === 'dark' || v.mode === 'light' ? v.mode : null;
  // Settings stored before `modeSetting` existed: their mode was a choice.
  const modeSetting = isModeSetting(v.modeSetting) ? v.modeSetting : (storedMode ?? 'system');
  return {
    themeSchema: isThemeSchema(v.themeSchema) ? v.themeSchema : base.themeSchema,
    direction: v.direction === 'rtl' || v.direction === 'ltr' ? v.direction : base.direction,
    mode: modeSetting === 'system' ? base.mode : modeSetting,
    modeSetting,
    panelExpand: typeof v.panelExpand === 'boolean' ? v.panelExpand : base.panelExpand,
    controlSize: controlSizes.includes(v.controlSize as ControlSize)
      ? (v.controlSize as ControlSize)
      : base.controlSize,
    layout: {
      type: isLayout(layout.type) ? layout.type : base.layout.type,
      sideNavCollapse:
        typeof layout.sideNavCollapse === 'boolean'
          ? layout.sideNavCollapse
          : base.layout.sideNavCollapse,
      ...(isLayout(layout.previousType) ? { previousType: layout.previousType } : {}),
    },
  };
}

function readStored(): string | null {
  try {
    return localStorage.getItem(THEME_STORAGE_KEY);
  } catch {
    return null;
  }
}

let current: ThemeSettings = parseTheme(readStored());
const listeners = new Set<() => void>();

/**
 * Puts the settings on the document: the `dark` class, `data-theme` (the colour theme's palette,
 * src/styles.css), `color-scheme`, the browser colour.
 */
export function applyTheme(theme: ThemeSettings): void {
  const root = document.documentElement;
  root.classList.toggle('dark', theme.mode === 'dark');
  root.dataset.theme = theme.themeSchema;
  root.style.colorScheme = theme.mode;
  root.dataset.controlSize = theme.controlSize;
  document
    .querySelector('meta[name="theme-color"]')
    ?.setAttribute(
      'content',
      theme.mode === 'dark' ? THEME_COLORS.dark : SCHEMA_COLORS[theme.themeSchema],
    );
}

export function getTheme(): ThemeSettings {
  return current;
}

/** Changes some settings, persists them and applies them. */
export function updateTheme(patch: Partial<ThemeSettings>): void {
  current = { ...current, ...patch };
  try {
    localStorage.setItem(THEME_STORAGE_KEY, JSON.stringify(current));
  } catch {
    // Private mode or storage full: the choice still applies to this visit.
  }
  applyTheme(current);
  for (const listener of listeners) listener();
}

export function setThemeMode(mode: ThemeMode): void {
  updateTheme({ mode, modeSetting: mode });
}

/** A mode, or `system`: then the system's, followed while the app runs (`followSystemMode`). */
export function setModeSetting(setting: ModeSetting): void {
  updateTheme({ modeSetting: setting, mode: setting === 'system' ? systemMode() : setting });
}

export function setThemeSchema(themeSchema: ThemeSchema): void {
  updateTheme({ themeSchema });
}

function systemMode(): ThemeMode {
  return prefersDark() ? 'dark' : 'light';
}

/** While `modeSetting` is `system`, a change of the system's mode applies at once. */
export function followSystemMode(): () => void {
  const query = window.matchMedia?.('(prefers-color-scheme: dark)');
  if (!query) return () => undefined;
  const onChange = () => {
    if (current.modeSetting === 'system' && current.mode !== systemMode()) {
      updateTheme({ mode: systemMode() });
    }
  };
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

export function toggleThemeMode(): void {
  setThemeMode(current.mode === 'dark' ? 'light' : 'dark');
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current theme settings; re-renders when they change. */
export function useTheme(): ThemeSettings {
  return useSyncExternalStore(subscribe, getTheme, getTheme);
}

/** For tests: forget the in-memory settings and read storage again. */
export function reloadThemeFromStorage(): void {
  current = parseTheme(readStored());
  for (const listener of listeners) listener();
}

/**
 * The appearance kept with the account (user metadata `theme: {schema, mode}`, saved by the
 * account page): applied when a user signs in, so a new device looks like the last one. Anything
 * malformed is ignored.
 */
export function adoptAccountTheme(metadata: Record<string, unknown> | undefined): void {
  const saved = metadata?.theme as { schema?: unknown; mode?: unknown } | undefined;
  if (!saved || typeof saved !== 'object') return;
  const patch: Partial<ThemeSettings> = {};
  if (isThemeSchema(saved.schema) && saved.schema !== current.themeSchema) {
    patch.themeSchema = saved.schema;
  }
  if (isModeSetting(saved.mode) && saved.mode !== current.modeSetting) {
    patch.modeSetting = saved.mode;
    patch.mode = saved.mode === 'system' ? systemMode() : saved.mode;
  }
  if (Object.keys(patch).length > 0) updateTheme(patch);
}
