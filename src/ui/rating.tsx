import { useId, useState, type ReactNode } from 'react';

import { StarIcon } from '@/ui/icons';

/** A read-only rating: `value` of 5 stars, with its text for assistive tech in `label`. */
export function StarRating({
  value,
  label,
  size = 16,
}: {
  value: number;
  label: string;
  size?: number;
}) {
  return (
    <span role="img" aria-label={label} className="inline-flex items-center gap-0.5">
      {[1, 2, 3, 4, 5].map((n) => (
        <StarIcon
          key={n}
          size={size}
          className={n <= Math.round(value) ? 'text-amber-500' : 'text-line'}
        />
      ))}
    </span>
  );
}

/**
 * Choosing 1 to 5 stars: native radio buttons (arrow keys move and choose, Tab leaves the group,
 * every screen reader knows them), drawn as stars that fill up to the hovered or chosen one.
 */
export function StarRatingInput({
  value,
  onChange,
  legend,
  starLabel,
  error,
  name,
}: {
  value: number | null;
  onChange: (value: number) => void;
  legend: ReactNode;
  /** The accessible name of each choice, e.g. n => "3 étoiles sur 5". */
  starLabel: (n: number) => string;
  error?: string;
  name?: string;
}) {
  const fallbackName = useId();
  const errorId = useId();
  const [hovered, setHovered] = useState<number | null>(null);
  const shown = hovered ?? value ?? 0;
  return (
    <fieldset
      className="flex flex-col gap-1"
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="flex items-center gap-1" onPointerLeave={() => setHovered(null)}>
        {[1, 2, 3, 4, 5].map((n) => (
          <label
            key={n}
            className="relative flex size-11 cursor-pointer items-center justify-center rounded-lg has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
            onPointerEnter={() => setHovered(n)}
          >
            <input
              type="radio"
              name={name ?? fallbackName}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              aria-label={starLabel(n)}
              className="peer absolute inset-0 cursor-pointer opacity-0"
            />
            <StarIcon size={30} className={n <= shown ? 'text-amber-500' : 'text-line'} />
          </label>
        ))}
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </fieldset>
  );
}
