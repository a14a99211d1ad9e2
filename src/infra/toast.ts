import { useSyncExternalStore } from 'react';

/**
 * Toasts: short messages that disappear on their own (docs/product.md §9: 5 s at bottom-centre by default;
 * the sign-in notice 3 s at top-centre). The messages are already translated by the caller.
 * Rendered by src/ui/toast-viewport.tsx, which the app mounts once.
 */
export type ToastKind = 'info' | 'success' | 'warning' | 'error';
export type ToastPlacement = 'top-center' | 'bottom-center';

export type ToastAction = { label: string; onAction: () => void };

export type ToastOptions = {
  /** A stable id replaces an earlier toast with the same id instead of stacking a copy. */
  id?: string;
  kind?: ToastKind;
  /** Milliseconds before it closes; `Infinity` keeps it until dismissed. Default 5000. */
  duration?: number;
  placement?: ToastPlacement;
  action?: ToastAction;
};

export type Toast = {
  id: string;
  message: string;
  kind: ToastKind;
  duration: number;
  placement: ToastPlacement;
  action?: ToastAction;
  createdAt: number;
};

export const DEFAULT_TOAST_DURATION = 5000;
/** The "please login" notice of the route guard. */
export const SIGN_IN_TOAST_DURATION = 3000;

let toasts: readonly Toast[] = [];
const listeners = new Set<() => void>();
let counter = 0;

function emit(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

/** Shows a toast and returns its id. */
export function showToast(message: string, options: ToastOptions = {}): string {
  const id = options.id ?? `toast-${++counter}`;
  const toast: Toast = {
    id,
    message,
    kind: options.kind ?? 'info',
    duration: options.duration ?? DEFAULT_TOAST_DURATION,
    placement: options.placement ?? 'bottom-center',
    createdAt: Date.now(),
    ...(options.action ? { action: options.action } : {}),
  };
  emit([...toasts.filter((t) => t.id !== id), toast]);
  return id;
}

export function dismissToast(id: string): void {
  if (toasts.some((t) => t.id === id)) emit(toasts.filter((t) => t.id !== id));
}

export function dismissAllToasts(): void {
  if (toasts.length) emit([]);
}

export function getToasts(): readonly Toast[] {
  return toasts;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, getToasts, getToasts);
}
