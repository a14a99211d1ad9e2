import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';

import {
  DAMAGE_MAX,
  DAMAGE_NOTE_MAX,
  handoverZones,
  zoneCentres,
  type DamageMark,
  type HandoverZone,
} from '@/domain/handover';
import { Button } from '@/ui/button';
import { CarOutline } from '@/ui/car-outline';
import { zoneLabels } from '@/ui/handover-labels';

/* eslint-disable lingui/no-unlocalized-strings -- Tailwind classes, not copy */
const inputClass =
  'w-full min-w-0 rounded-lg border border-line bg-surface px-3 py-2 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring';
/* eslint-enable lingui/no-unlocalized-strings */

/**
 * Damage marks on the car outline: a tap on the drawing pins one there; the keyboard (and a
 * screen reader) adds one by choosing a zone from the list. Each mark has a note and can be removed.
 */
export function DamageEditor({
  marks,
  onChange,
}: {
  marks: DamageMark[];
  onChange: (marks: DamageMark[]) => void;
}) {
  const { t, i18n } = useLingui();
  const id = useId();
  const [zone, setZone] = useState<HandoverZone>('front');
  const full = marks.length >= DAMAGE_MAX;
  const add = (mark: DamageMark) => {
    if (!full) onChange([...marks, mark]);
  };
  return (
    <fieldset className="flex flex-col gap-2" data-testid="damage-editor">
      <legend className="text-sm font-medium">
        <Trans>Dommages</Trans>
      </legend>
      <p className="text-xs text-fg-muted" id={`${id}-help`}>
        <Trans>
          Touchez le schéma à l’endroit du dommage, ou choisissez une zone puis « Ajouter ».
        </Trans>
      </p>
      <div className="flex flex-wrap items-start gap-3">
        <CarOutline
          marks={marks}
          onPick={(x, y) => add({ x, y, zone: null, note: '' })}
          className="h-56 w-44 shrink-0 cursor-crosshair rounded-lg"
        />
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <div className="flex flex-wrap items-end gap-2">
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <label htmlFor={`${id}-zone`} className="text-sm">
                <Trans>Zone</Trans>
              </label>
              <select
                id={`${id}-zone`}
                className={inputClass}
                value={zone}
                aria-describedby={`${id}-help`}
                onChange={(e) => setZone(e.target.value as HandoverZone)}
              >
                {handoverZones.map((z) => (
                  <option key={z} value={z}>
                    {i18n._(zoneLabels[z])}
                  </option>
                ))}
              </select>
            </div>
            <Button
              type="button"
              variant="secondary"
              size="sm"
              disabled={full}
              onClick={() => add({ ...zoneCentres[zone], zone, note: '' })}
              data-testid="damage-add"
            >
              <Trans>Ajouter</Trans>
            </Button>
          </div>
          <ol className="flex flex-col gap-2" data-testid="damage-list">
            {marks.map((mark, i) => {
              const n = i + 1;
              const where = mark.zone ? i18n._(zoneLabels[mark.zone]) : t`Point marqué`;
              return (
                <li key={i} className="flex flex-col gap-1 rounded-lg bg-muted p-2">
                  <label htmlFor={`${id}-note-${i}`} className="text-sm">
                    <Trans>
                      Dommage {n} : {where}
                    </Trans>
                  </label>
                  <div className="flex gap-2">
                    <input
                      id={`${id}-note-${i}`}
                      className={inputClass}
                      maxLength={DAMAGE_NOTE_MAX}
                      value={mark.note}
                      dir="auto"
                      placeholder={t`Rayure, bosse, éclat…`}
                      onChange={(e) =>
                        onChange(
                          marks.map((m, j) => (j === i ? { ...m, note: e.target.value } : m)),
                        )
                      }
                    />
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      aria-label={t`Retirer le dommage ${n}`}
                      onClick={() => onChange(marks.filter((_, j) => j !== i))}
                    >
                      <Trans>Retirer</Trans>
                    </Button>
                  </div>
                </li>
              );
            })}
          </ol>
        </div>
      </div>
    </fieldset>
  );
}
