import { useSyncExternalStore } from 'react';

import type { Direction } from '@/domain/locale';

/**
 * Theme settings, persisted in localStorage under `theme` with the seed's fields (docs/product.md §3).
 * index.html applies `mode` and the language's direction before the first paint with a small
 * inline script that reads the same keys: keep the two in step (see docs/ui.md).
 */
export type ThemeMode = 'light' | 'dark';
export type ControlSize = 'xs' | 'sm' | 'md' | 'lg';
export type LayoutType =
  | 'collapsibleSide'
  | 'stackedSide'
  | 'topBarClassic'
  | 'framelessSide'
  | 'contentOverlay'
  | 'blank';

export type ThemeSettings = {
  themeSchema: string;
  direction: Direction;
  mode: ThemeMode;
  panelExpand: boolean;
  controlSize: ControlSize;
  layout: { type: LayoutType; sideNavCollapse: boolean; previousType?: LayoutType };
};

export const THEME_STORAGE_KEY = 'theme';

/** The browser colours of the two modes (`<meta name="theme-color">`, manifest). */
export const THEME_COLORS: Record<ThemeMode, string> = { light: '#1d4ed8', dark: '#0f172a' };

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
  return {
    themeSchema: typeof v.themeSchema === 'string' ? v.themeSchema : base.themeSchema,
    direction: v.direction === 'rtl' || v.direction === 'ltr' ? v.direction : base.direction,
    mode: v.mode === 'dark' || v.mode === 'light' ? v.mode : base.mode,
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

/** Puts the settings on the document: the `dark` class, `color-scheme`, the browser colour. */
export function applyTheme(theme: ThemeSettings): void {
  const root = document.documentElement;
  root.classList.toggle('dark', theme.mode === 'dark');
  root.style.colorScheme = theme.mode;
  root.dataset.controlSize = theme.controlSize;
  document
    .querySelector('meta[name="theme-color"]')
    ?.setAttribute('content', THEME_COLORS[theme.mode]);
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
  updateTheme({ mode });
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
