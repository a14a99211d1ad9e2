import { useLingui } from '@lingui/react/macro';

import { cn } from '@/ui/cn';

/** One star, used as a repeated mask: five stars are one element, however many cards show. */
const STAR = encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">' +
    '<path d="M12 2.8l2.8 5.8 6.3.9-4.6 4.4 1.1 6.3L12 17.2l-5.6 3 1.1-6.3-4.6-4.4 6.3-.9z"/></svg>',
);
const STAR_MASK = `url("data:image/svg+xml,${STAR}")`;
const FILLED = '#f59e0b';

/** Five stars filled up to `rating` (to the half star), read out as "4,5 sur 5". */
export function Stars({
  rating,
  size = 16,
  className,
}: {
  rating: number;
  size?: number;
  className?: string;
}) {
  const { t, i18n } = useLingui();
  const value = Math.round(rating * 10) / 10;
  const shown = i18n.number(value, { maximumFractionDigits: 1 });
  const percent = (Math.round(Math.min(5, Math.max(0, value)) * 2) / 2 / 5) * 100;
  const towards = i18n.locale === 'ar' ? 'left' : 'right';
  return (
    <span
      role="img"
      aria-label={t`${shown} sur 5`}
      className={cn('inline-block shrink-0', className)}
      style={{
        width: size * 5,
        height: size,
        background: `linear-gradient(to ${towards}, ${FILLED} ${percent}%, var(--k-line) ${percent}%)`,
        maskImage: STAR_MASK,
        WebkitMaskImage: STAR_MASK,
        maskSize: `${size}px ${size}px`,
        WebkitMaskSize: `${size}px ${size}px`,
        maskRepeat: 'repeat-x',
        WebkitMaskRepeat: 'repeat-x',
      }}
    />
  );
}
