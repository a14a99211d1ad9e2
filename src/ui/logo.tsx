import { BRAND_NAME } from '@/domain/brand';
import { cn } from '@/ui/cn';

/**
 * Kiraa's mark: a car on the road, white on the brand blue. The same drawing is
 * public/icons/logo.svg, from which scripts/generate-icons.ts renders the PNG icons.
 */
export function LogoMark({ size = 32, className }: { size?: number; className?: string }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 64 64"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
      className={cn('shrink-0', className)}
    >
      <rect width="64" height="64" rx="15" fill="#1d4ed8" />
      <path
        fill="#fff"
        d="M10 39.5v-5.2c0-1.3.8-2.4 2-2.8l5.2-1.8 5.6-7.4a6 6 0 0 1 4.8-2.4h10.2a6 6 0 0 1 4.6 2.2l6.1 7.5 4.2 1.3c1.3.4 2.3 1.6 2.3 3v5.6c0 1.1-.9 2-2 2h-2.3a6 6 0 0 0-11.4 0H26.7a6 6 0 0 0-11.4 0H12c-1.1 0-2-.9-2-2Z"
      />
      <path
        fill="#1d4ed8"
        d="M23.6 30.4 27 25.6c.4-.5.9-.8 1.6-.8h3.9v5.6Zm12.4 0v-5.6h2.7c.6 0 1.2.3 1.6.7l3.9 4.9Z"
      />
      <circle cx="21" cy="42" r="4.6" fill="#1d4ed8" stroke="#fff" strokeWidth="2.6" />
      <circle cx="43" cy="42" r="4.6" fill="#1d4ed8" stroke="#fff" strokeWidth="2.6" />
      <rect x="9" y="50" width="46" height="3.2" rx="1.6" fill="#fbbf24" />
    </svg>
  );
}

/** The mark and the name, as in the header (`nameClassName` e.g. hides the name on tiny screens). */
export function Logo({ className, nameClassName }: { className?: string; nameClassName?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2', className)}>
      <LogoMark />
      <span
        className={cn('text-xl font-extrabold tracking-tight text-fg', nameClassName)}
        translate="no"
        dir="ltr"
      >
        {BRAND_NAME}
      </span>
    </span>
  );
}
