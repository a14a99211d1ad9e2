import { Trans } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';

import { holdsCar } from '@/domain/lifecycle';
import type { LocalBooking } from '@/domain/local-booking';
import { currentLocale } from '@/infra/i18n';
import { pushDeclined, pushPermission, pushSupport, rememberPushDeclined } from '@/infra/push';
import { enablePush, guestPushEnabled, type PushChoice } from '@/sync/news';
import { Button } from '@/ui/button';

import { Card, Notice } from '@/features/booking/form-parts';

type Props = { booking: LocalBooking; userId: string | null };

/**
 * Asks whether to be told of the agency's answer by notification, once the server holds the
 * booking (never on a first load, never before a booking): one sentence why, "turn on" or "not
 * now" (remembered). Where push needs the Home Screen (iOS, iPadOS) it says so; where the browser
 * has no push it says nothing (the page still updates when it is opened or back online).
 */
export default function PushOptIn({ booking, userId }: Props) {
  const support = pushSupport();
  const [permission, setPermission] = useState(pushPermission);
  const [declined, setDeclined] = useState(pushDeclined);
  const [result, setResult] = useState<PushChoice | null>(null);
  const [busy, setBusy] = useState(false);
  const isOwner = userId !== null && booking.user_id === userId;
  const guestOn = useLiveQuery(
    () => (isOwner ? Promise.resolve(true) : guestPushEnabled(booking.id)),
    [booking.id, isOwner],
  );
  const serverHolds =
    (booking.sync_state === 'awaiting' || booking.sync_state === 'confirmed') &&
    holdsCar(booking.status);

  // Notifications allowed on this device before (another booking): this one is added quietly.
  useEffect(() => {
    if (!serverHolds || permission !== 'granted' || guestOn !== false) return;
    void enablePush(booking, userId, currentLocale()).then(setResult);
  }, [serverHolds, permission, guestOn, booking, userId]);

  if (!serverHolds || support === 'unsupported' || guestOn === undefined) return null;

  if (support === 'needs-home-screen') {
    return (
      <Notice tone="info">
        <span data-testid="push-home-screen">
          <Trans>
            Pour être prévenu de la réponse de l’agence sur iPhone ou iPad, ajoutez Kiraa à l’écran
            d’accueil (Partager, puis « Sur l’écran d’accueil ») et ouvrez-le depuis l’écran
            d’accueil.
          </Trans>
        </span>
      </Notice>
    );
  }

  if (permission === 'granted' && (guestOn || result === 'saved')) {
    return (
      <p className="text-sm text-fg-muted" data-testid="push-on">
        <Trans>
          Notifications activées : vous serez prévenu de la réponse de l’agence, même l’application
          fermée.
        </Trans>
      </p>
    );
  }
  if (permission === 'denied' || declined || result === 'denied') return null;
  if (permission === 'granted') return null;

  async function turnOn() {
    setBusy(true);
    try {
      const answer = await enablePush(booking, userId, currentLocale());
      setResult(answer);
      setPermission(pushPermission());
      if (answer === 'denied') setDeclined(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="flex flex-col gap-3">
      <div data-testid="push-opt-in" className="flex flex-col gap-3">
        <h2 className="text-lg font-semibold">
          <Trans>Être prévenu de la réponse</Trans>
        </h2>
        <p className="text-sm">
          <Trans>
            Activez les notifications : nous vous prévenons dès que l’agence accepte ou refuse cette
            réservation, même l’application fermée.
          </Trans>
        </p>
        {(result === 'unavailable' || result === 'failed') && (
          <Notice tone="warning" live>
            <Trans>
              Les notifications n’ont pas pu être activées. Cette page se met à jour quand vous
              l’ouvrez en ligne.
            </Trans>
          </Notice>
        )}
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => void turnOn()} loading={busy} data-testid="push-enable">
            <Trans>Activer les notifications</Trans>
          </Button>
          <Button
            variant="ghost"
            onClick={() => {
              rememberPushDeclined();
              setDeclined(true);
            }}
            data-testid="push-later"
          >
            <Trans>Plus tard</Trans>
          </Button>
        </div>
      </div>
    </Card>
  );
}
