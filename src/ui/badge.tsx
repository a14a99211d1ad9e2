import type { HTMLAttributes } from 'react';

import type { Tone } from '@/domain/booking-outcomes';
import { cn } from '@/ui/cn';

export type BadgeTone = Tone;

/* eslint-disable lingui/no-unlocalized-strings -- Tailwind classes, not copy */
const toneClassNames: Record<BadgeTone, string> = {
  neutral: 'bg-muted text-fg',
  info: 'bg-primary-soft text-primary-text',
  success: 'bg-success/15 text-success',
  warning: 'bg-warning/15 text-fg',
  danger: 'bg-danger/15 text-danger',
};
/* eslint-enable lingui/no-unlocalized-strings */

/** A small coloured label (a status, a state). The text is the caller's, already translated. */
export function Badge({
  tone = 'neutral',
  className,
  children,
  ...rest
}: HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap',
        toneClassNames[tone],
        className,
      )}
      data-badge=""
      {...rest}
    >
      {children}
    </span>
  );
}
