import type { ReactNode } from 'react';

/** The heading block of an account screen, inside the shell's 'side' layout. */
export function AuthPage({
  title,
  subtitle,
  children,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="flex flex-col gap-6" aria-labelledby="auth-title">
      <div className="flex flex-col gap-1">
        <h1 id="auth-title" className="text-2xl font-bold tracking-tight">
          {title}
        </h1>
        {subtitle && <p className="text-sm text-fg-muted">{subtitle}</p>}
      </div>
      {children}
    </section>
  );
}
