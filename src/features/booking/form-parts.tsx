import type { ReactNode } from 'react';

import { cn } from '@/ui/cn';

export const inputClassName =
  'h-11 w-full min-w-0 rounded-lg border border-line bg-surface px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring aria-invalid:border-danger';

/** A labelled field with its error (announced) and an optional hint. */
export function Field({
  id,
  label,
  error,
  hint,
  children,
  className,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex min-w-0 flex-col gap-1', className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-fg-muted">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm text-danger">
      {message}
    </p>
  );
}

/** aria attributes tying an input to its error and hint. */
export function describedBy(id: string, error?: string, hint = false) {
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : hint ? `${id}-hint` : undefined,
  } as const;
}

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <section className={cn('rounded-xl border border-line bg-surface p-4 sm:p-6', className)}>
      {children}
    </section>
  );
}

export function Notice({
  tone = 'info',
  children,
  className,
  live = false,
}: {
  tone?: 'info' | 'warning' | 'danger' | 'success';
  children: ReactNode;
  className?: string;
  live?: boolean;
}) {
  /* eslint-disable lingui/no-unlocalized-strings -- Tailwind classes, not copy */
  const tones = {
    info: 'border-line bg-muted text-fg',
    warning: 'border-warning/50 bg-warning/10 text-fg',
    danger: 'border-danger/50 bg-danger/10 text-fg',
    success: 'border-success/50 bg-success/10 text-fg',
  };
  /* eslint-enable lingui/no-unlocalized-strings */
  return (
    <div
      role={live ? (tone === 'danger' ? 'alert' : 'status') : undefined}
      className={cn('rounded-lg border px-3 py-2 text-sm', tones[tone], className)}
    >
      {children}
    </div>
  );
}
