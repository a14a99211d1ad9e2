import { Trans } from '@lingui/react/macro';

import { cn } from '@/ui/cn';

// eslint-disable-next-line lingui/no-unlocalized-strings -- Tailwind classes, not copy
const sizeClassNames = { sm: 'size-4 border-2', md: 'size-6 border-2', lg: 'size-10 border-[3px]' };

/** A turning ring. Decorative inside a busy button; `label` makes it a status of its own. */
export function Spinner({
  size = 'md',
  label = false,
  className,
}: {
  size?: keyof typeof sizeClassNames;
  /** When true, announces "Chargement…" to screen readers. */
  label?: boolean;
  className?: string;
}) {
  const ring = (
    <span
      aria-hidden="true"
      className={cn(
        'inline-block animate-spin rounded-full border-current border-e-transparent motion-reduce:animate-[spin_1.5s_linear_infinite]',
        sizeClassNames[size],
        className,
      )}
    />
  );
  if (!label) return ring;
  return (
    <span role="status" className="inline-flex items-center gap-2">
      {ring}
      <span className="sr-only">
        <Trans>Chargement…</Trans>
      </span>
    </span>
  );
}

/** A page-sized loading state, for lazy routes and guards. */
export function PageSpinner() {
  return (
    <div className="flex min-h-[40vh] items-center justify-center text-primary-text">
      <Spinner size="lg" label />
    </div>
  );
}
