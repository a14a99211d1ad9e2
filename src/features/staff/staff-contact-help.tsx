import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { stageOf } from '@/domain/booking-outcomes';
import { Button } from '@/ui/button';

import {
  confirmGuestContact,
  extendConfirmation,
  type StaffBooking,
} from '@/features/staff/staff-api';

/** The extensions staff may give (minutes): the server takes 15 to 1440. */
const EXTENSIONS = [30, 120, 1440] as const;

type Answer = { ok: true; what: 'confirmed' | 'extended' } | { ok: false; code: string };

/**
 * A guest booking waiting for its code (docs/decisions.md, "Guest contact confirmation"): when the
 * code did not reach the guest, staff confirm the contact after calling them, or give more time.
 */
export function StaffContactHelp({
  booking,
  online,
  onChanged,
  describedBy,
}: {
  booking: Pick<
    StaffBooking,
    'id' | 'status' | 'user_id' | 'confirm_by' | 'contact_confirmed_at' | 'status_reason'
  >;
  online: boolean;
  onChanged: () => void;
  describedBy?: string;
}) {
  const { t, i18n } = useLingui();
  const id = useId();
  const [asking, setAsking] = useState(false);
  const [minutes, setMinutes] = useState<number>(EXTENSIONS[0]);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);
  if (stageOf(booking) !== 'awaiting_confirmation' && !answer) return null;

  async function run(what: 'confirmed' | 'extended') {
    setBusy(true);
    const result =
      what === 'confirmed'
        ? await confirmGuestContact(booking.id)
        : await extendConfirmation(booking.id, minutes);
    setBusy(false);
    setAsking(false);
    setAnswer(result.ok ? { ok: true, what } : { ok: false, code: result.code });
    if (result.ok) onChanged();
  }

  const labels: Record<(typeof EXTENSIONS)[number], string> = {
    30: t`30 minutes de plus`,
    120: t`2 heures de plus`,
    1440: t`24 heures de plus`,
  };
  return (
    <div className="flex flex-col gap-2" data-testid="staff-contact-help">
      {stageOf(booking) === 'awaiting_confirmation' && (
        <div className="flex flex-wrap items-end gap-2">
          {asking ? (
            <div
              role="group"
              aria-labelledby={`${id}-ask`}
              className="flex flex-wrap items-center gap-2"
            >
              <span id={`${id}-ask`} className="text-sm">
                <Trans>Vous avez joint le client et il confirme cette réservation ?</Trans>
              </span>
              <Button
                size="sm"
                disabled={!online || busy}
                loading={busy}
                onClick={() => void run('confirmed')}
                data-testid="staff-confirm-contact-yes"
              >
                <Trans>Oui, confirmer son contact</Trans>
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setAsking(false)}>
                <Trans>Annuler</Trans>
              </Button>
            </div>
          ) : (
            <Button
              size="sm"
              variant="secondary"
              disabled={!online || busy}
              onClick={() => setAsking(true)}
              aria-describedby={describedBy}
              data-testid="staff-confirm-contact"
            >
              <Trans>Contact confirmé par téléphone</Trans>
            </Button>
          )}
          <label className="flex max-w-full min-w-0 flex-col text-sm" htmlFor={`${id}-minutes`}>
            <Trans>Délai de confirmation</Trans>
            <select
              id={`${id}-minutes`}
              className="min-h-9 max-w-full rounded-md border border-line bg-surface px-2"
              value={minutes}
              onChange={(e) => setMinutes(Number(e.target.value))}
              data-testid="staff-extend-minutes"
            >
              {EXTENSIONS.map((m) => (
                <option key={m} value={m}>
                  {labels[m]}
                </option>
              ))}
            </select>
          </label>
          <Button
            size="sm"
            variant="secondary"
            disabled={!online || busy}
            onClick={() => void run('extended')}
            aria-describedby={describedBy}
            data-testid="staff-extend"
          >
            <Trans>Prolonger le délai</Trans>
          </Button>
        </div>
      )}
      <div aria-live="polite">
        {answer && (
          <p
            className={answer.ok ? 'text-sm text-success' : 'text-sm text-danger'}
            data-testid="staff-contact-answer"
            data-ok={answer.ok}
          >
            {!answer.ok ? (
              i18n._(bookingErrorMessage(answer.code))
            ) : answer.what === 'confirmed' ? (
              <Trans>Contact confirmé : la réservation attend maintenant votre réponse.</Trans>
            ) : (
              <Trans>Délai prolongé : le client a plus de temps pour saisir son code.</Trans>
            )}
          </p>
        )}
      </div>
    </div>
  );
}
