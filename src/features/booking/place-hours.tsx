import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';

import { algiersToIso, formatDate } from '@/domain/dates';
import { type Locale, localized } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import {
  formatMinutes,
  hoursOn,
  isOpenAt,
  timeChoices,
  type PlaceHours,
} from '@/domain/opening-hours';
import type { Location } from '@/domain/rows';

import { inputClassName } from '@/features/booking/form-parts';

/**
 * Under a chosen place: its hours on the draft's pickup (or return) day, or why it is closed that
 * day; when the chosen time is outside them, the times it offers that day, to pick one here
 * (docs/opening-hours.md).
 */
export function PlaceHoursNote({
  place,
  date,
  time,
  side,
  onTime,
}: {
  place: PlaceHours;
  date: string;
  time: string;
  side: 'pickup' | 'return';
  onTime: (time: string) => void;
}) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const id = useId();
  const at = algiersToIso(date, time);
  if (!at) return null;
  const day = formatDate(at, locale);
  const hours = hoursOn(place, date);
  const open = isOpenAt(place, at);

  if ('closed' in hours) {
    return (
      <p className="text-sm text-danger" data-testid={`${side}-hours`} data-closed={hours.closed}>
        {hours.closed === 'closed_date' ? (
          <Trans>
            Fermé le {day} (jour de fermeture de ce lieu). Choisissez un autre jour à la première
            étape, ou un autre lieu.
          </Trans>
        ) : (
          <Trans>
            Fermé le {day} : ce lieu ne reçoit personne ce jour de la semaine. Choisissez un autre
            jour à la première étape, ou un autre lieu.
          </Trans>
        )}
      </p>
    );
  }

  const from = formatMinutes(hours.hours[0]);
  const to = formatMinutes(hours.hours[1]);
  const choices = timeChoices(place, date);
  const label = side === 'pickup' ? t`Heure de prise en charge` : t`Heure de retour`;
  return (
    <div className="flex flex-col gap-2" data-testid={`${side}-hours`} data-open={String(open)}>
      <p className={open ? 'text-sm text-fg-muted' : 'text-sm text-danger'}>
        {open ? (
          <Trans>
            Ouvert le {day} de <bdi>{from}</bdi> à <bdi>{to}</bdi>.
          </Trans>
        ) : (
          <Trans>
            Ouvert le {day} de <bdi>{from}</bdi> à <bdi>{to}</bdi> seulement : choisissez une heure
            dans ces horaires.
          </Trans>
        )}
      </p>
      {!open && choices.length > 0 && (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-time`} className="text-sm font-medium">
            {label}
          </label>
          <select
            id={`${id}-time`}
            className={inputClassName}
            value=""
            data-testid={`${side}-time-choice`}
            onChange={(e) => {
              if (e.target.value) onTime(e.target.value);
            }}
          >
            <option value="">{t`Choisissez une heure`}</option>
            {choices.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}

/** A place in a select, airports with their IATA code, with its delivery fee. */
export function PlaceOptions({ locations, locale }: { locations: Location[]; locale: Locale }) {
  const { t } = useLingui();
  const groups: [string, Location[]][] = [
    [t`Aéroports`, locations.filter((l) => l.kind === 'airport')],
    [t`Villes et agences`, locations.filter((l) => l.kind === 'city')],
  ];
  return (
    <>
      {groups.map(([label, list]) =>
        list.length === 0 ? null : (
          <optgroup key={label} label={label}>
            {list.map((l) => {
              const name = localized(l.name, locale) + (l.iata ? ` (${l.iata})` : '');
              const fee = formatDzd(l.delivery_fee_dzd, locale);
              return (
                <option key={l.id} value={l.id}>
                  {l.delivery_fee_dzd > 0 ? t`${name} — livraison ${fee}` : name}
                </option>
              );
            })}
          </optgroup>
        ),
      )}
    </>
  );
}
