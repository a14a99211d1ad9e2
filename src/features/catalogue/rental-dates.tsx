import { Trans } from '@lingui/react/macro';
import { useId, useState } from 'react';

import { algiersToday } from '@/domain/dates';

import { datesOutOfOrder } from '@/features/catalogue/filters';

export const DEFAULT_TIME = '10:00';

const split = (value: string) => {
  const [date = '', time = ''] = value ? value.split('T') : [];
  return { date, time: time || DEFAULT_TIME };
};

export const inputClassName =
  'h-11 w-full min-w-0 rounded-lg border border-line bg-surface px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring';

/**
 * Pickup and return, each a date and a time in Algiers (wall clock, `YYYY-MM-DDTHH:mm`).
 * A side counts once its date is chosen (the time defaults to 10:00).
 */
export function RentalDates({
  start,
  end,
  onChange,
}: {
  start: string;
  end: string;
  onChange: (next: { start: string; end: string }) => void;
}) {
  const id = useId();
  // The typed parts are kept even while incomplete (a time without its date yet).
  const [draft, setDraft] = useState(() => ({ start: split(start), end: split(end) }));
  const [seen, setSeen] = useState({ start, end });
  if (seen.start !== start || seen.end !== end) {
    // The value changed from outside (back/forward, reset): follow it.
    setSeen({ start, end });
    setDraft({ start: split(start), end: split(end) });
  }
  const today = algiersToday();

  function update(side: 'start' | 'end', part: 'date' | 'time', value: string) {
    const next = { ...draft, [side]: { ...draft[side], [part]: value } };
    setDraft(next);
    const join = (p: { date: string; time: string }) =>
      p.date ? [p.date, p.time || DEFAULT_TIME].join('T') : '';
    const values = { start: join(next.start), end: join(next.end) };
    setSeen(values);
    onChange(values);
  }

  const invalid = datesOutOfOrder({ start, end });
  return (
    <div className="flex flex-col gap-3">
      {(['start', 'end'] as const).map((side) => (
        <fieldset key={side} className="min-w-0">
          <legend className="mb-1 text-sm font-medium">
            {side === 'start' ? (
              <Trans context="car pickup">Prise en charge</Trans>
            ) : (
              <Trans context="car return">Retour</Trans>
            )}
          </legend>
          {/* Date and time side by side when they fit, one under the other on narrow screens. */}
          <div className="flex flex-wrap gap-2">
            <label className="min-w-0 flex-[3_1_9rem]">
              <span className="sr-only">
                {side === 'start' ? (
                  <Trans>Date de prise en charge</Trans>
                ) : (
                  <Trans>Date de retour</Trans>
                )}
              </span>
              <input
                type="date"
                name={`${side}-date`}
                min={side === 'start' ? today : draft.start.date || today}
                value={draft[side].date}
                onChange={(e) => update(side, 'date', e.target.value)}
                aria-invalid={side === 'end' && invalid ? true : undefined}
                aria-describedby={side === 'end' && invalid ? `${id}-order` : undefined}
                className={inputClassName}
              />
            </label>
            <label className="min-w-0 flex-[2_1_6.5rem]">
              <span className="sr-only">
                {side === 'start' ? (
                  <Trans>Heure de prise en charge</Trans>
                ) : (
                  <Trans>Heure de retour</Trans>
                )}
              </span>
              <input
                type="time"
                name={`${side}-time`}
                step={900}
                value={draft[side].time}
                onChange={(e) => update(side, 'time', e.target.value)}
                className={inputClassName}
              />
            </label>
          </div>
        </fieldset>
      ))}
      {invalid && (
        <p id={`${id}-order`} role="alert" className="text-sm text-danger">
          <Trans>La date de retour doit être après la prise en charge.</Trans>
        </p>
      )}
      <p className="text-xs text-fg-muted">
        <Trans>Heures d’Alger (GMT+1).</Trans>
      </p>
    </div>
  );
}
