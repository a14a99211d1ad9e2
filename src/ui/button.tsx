import type { ButtonHTMLAttributes, Ref } from 'react';

import { cn } from '@/ui/cn';
import { Spinner } from '@/ui/spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

/* eslint-disable lingui/no-unlocalized-strings -- Tailwind classes, not copy */
const variantClassNames: Record<ButtonVariant, string> = {
  primary: 'bg-primary text-on-primary hover:bg-primary-hover shadow-sm',
  secondary: 'border border-line bg-surface text-fg hover:bg-muted',
  ghost: 'text-fg hover:bg-muted',
  danger: 'bg-danger text-on-primary hover:bg-danger-hover shadow-sm',
};

const sizeClassNames: Record<ButtonSize, string> = {
  sm: 'min-h-9 px-3 py-1 text-sm gap-1.5',
  md: 'min-h-11 px-4 py-1.5 text-sm gap-2',
  lg: 'min-h-12 px-6 py-2 text-base gap-2',
};
/* eslint-enable lingui/no-unlocalized-strings */

/** The classes of a button, for links that look like one (`<Link className={buttonClass()}>`). */
export function buttonClass({
  variant = 'primary',
  size = 'md',
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}): string {
  return cn(
    // A label longer than the room wraps between words (at 320 px in French or Arabic) instead
    // of pushing the button past the screen's edge.
    'inline-flex items-center justify-center rounded-lg text-center font-medium',
    'transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
    'disabled:pointer-events-none disabled:opacity-60 aria-disabled:pointer-events-none aria-disabled:opacity-60',
    variantClassNames[variant],
    sizeClassNames[size],
    className,
  );
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner, disables the button and tells assistive tech it is busy. */
  loading?: boolean;
  ref?: Ref<HTMLButtonElement>;
};

export function Button({
  variant,
  size,
  loading = false,
  className,
  type = 'button',
  disabled,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClass({ variant, size, className })}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading && <Spinner size="sm" />}
      {children}
    </button>
  );
}

export type IconButtonProps = Omit<ButtonProps, 'children' | 'size'> & {
  /** The accessible name: icon buttons have no visible text. */
  label: string;
  icon: React.ReactNode;
};

/** A square button showing only an icon; `label` is its accessible name and tooltip. */
export function IconButton({
  label,
  icon,
  variant = 'ghost',
  className,
  ...rest
}: IconButtonProps) {
  return (
    <Button
      variant={variant}
      aria-label={label}
      title={label}
      className={cn('size-10 shrink-0 !min-h-0 !px-0 !py-0', className)}
      {...rest}
    >
      {icon}
    </Button>
  );
}
