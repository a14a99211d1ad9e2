import { useLingui } from '@lingui/react/macro';

import { StarIcon } from '@/features/catalogue/icons';
import { cn } from '@/ui/cn';

/** Five stars filled up to `rating` (halves rounded), read out as "4,5 sur 5". */
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
  return (
    <span
      role="img"
      aria-label={t`${shown} sur 5`}
      className={cn('inline-flex items-center gap-0.5 text-amber-500', className)}
    >
      {[1, 2, 3, 4, 5].map((n) => {
        const fill = Math.max(0, Math.min(1, Math.round((value - n + 1) * 2) / 2));
        return (
          <span key={n} className="relative inline-flex" style={{ width: size, height: size }}>
            <StarIcon size={size} className="absolute inset-0 text-line" fill="currentColor" />
            {fill > 0 && (
              <span
                className="absolute inset-y-0 start-0 overflow-hidden"
                style={{ width: `${fill * 100}%` }}
              >
                <StarIcon size={size} fill="currentColor" />
              </span>
            )}
          </span>
        );
      })}
    </span>
  );
}
