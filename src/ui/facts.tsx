import type { ReactNode } from 'react';

import { cn } from '@/ui/cn';

export type Fact = {
  key: string;
  label: ReactNode;
  value: ReactNode;
  /** Amounts line up at the end and use tabular digits. */
  numeric?: boolean;
  /** A total: bold, with a rule above. */
  strong?: boolean;
};

/** Label/value pairs as a description list, two columns from the smallest screens (logical CSS). */
export function Facts({
  items,
  className,
  testId,
}: {
  items: readonly Fact[];
  className?: string;
  testId?: string;
}) {
  return (
    <dl
      className={cn(
        // The value column is never narrower than an amount (amounts do not wrap); labels wrap.
        'grid grid-cols-[minmax(0,auto)_minmax(auto,1fr)] gap-x-4 gap-y-1.5 text-sm',
        className,
      )}
      data-testid={testId}
    >
      {items.map((item) => (
        <div key={item.key} className="contents" data-fact={item.key}>
          <dt
            className={cn(
              'text-fg-muted',
              item.strong && 'border-t border-line pt-2 font-semibold text-fg',
            )}
          >
            {item.label}
          </dt>
          <dd
            className={cn(
              item.numeric ? 'text-end whitespace-nowrap tabular-nums' : 'min-w-0 break-words',
              item.strong && 'border-t border-line pt-2 font-semibold',
            )}
          >
            {item.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
