import { Trans, useLingui } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { lazy, Suspense, useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';

import { sayOutcome, stageOf } from '@/domain/booking-outcomes';
import { BRAND_NAME } from '@/domain/brand';
import { formatDateTime } from '@/domain/dates';
import type { LocalBooking } from '@/domain/local-booking';
import { type Locale, localized } from '@/domain/locale';
import { keepRunning } from '@/infra/background';
import { useSession } from '@/infra/session';
import { showToast } from '@/infra/toast';
import { CONTACT_LINES, whatsappUrl } from '@/infra/whatsapp';
import { Button, buttonClass } from '@/ui/button';
import { CalendarIcon, WhatsAppIcon } from '@/ui/icons';
import { PageSpinner } from '@/ui/spinner';

import { readLocalBooking, type BookingCatalogue } from '@/features/booking/booking-store';
import { BookingCard } from '@/features/booking/booking-card';
import { useBookingCatalogue } from '@/features/booking/booking-data';
import { buildIcs } from '@/features/booking/calendar';
import { Card, Notice } from '@/features/booking/form-parts';
import { SyncPanel } from '@/features/booking/sync-panel';
import { localOutcome } from '@/features/booking/sync-status';
import { ReferenceText } from '@/ui/reference-text';

// Loaded after the page: the reference comes first, the offer to be notified just after.
const PushOptIn = lazy(() => import('@/features/booking/push-opt-in'));

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

function useBookingTexts(booking: LocalBooking, catalogue: BookingCatalogue | undefined) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const car = catalogue?.cars.find((c) => c.id === booking.car_id)?.name ?? '';
  const place = (id: string) =>
    localized(catalogue?.locations.find((l) => l.id === id)?.name, locale);
  const reference = booking.reference;
  const start = formatDateTime(booking.start_at, locale);
  const end = formatDateTime(booking.end_at, locale);
  const pickup = place(booking.pickup_location_id);
  const dropoff = place(booking.dropoff_location_id);
  const brand = BRAND_NAME;
  return {
    share: t`Ma réservation ${brand} : ${reference} — ${car}, du ${start} (${pickup}) au ${end} (${dropoff}).`,
    whatsapp: t`Bonjour ${brand}, au sujet de ma réservation ${reference} (${car}, du ${start} au ${end}).`,
    ics: buildIcs([
      {
        uid: `${booking.id}-pickup@kiraa`,
        start: booking.start_at,
        summary: t`${brand} : prise en charge de ${car} (${reference})`,
        location: pickup,
        description: t`Référence ${reference}. Paiement en espèces ; apportez votre pièce d’identité originale et la caution.`,
      },
      {
        uid: `${booking.id}-return@kiraa`,
        start: booking.end_at,
        summary: t`${brand} : retour de ${car} (${reference})`,
        location: dropoff,
        description: t`Référence ${reference}.`,
      },
    ]),
  };
}

function SuccessActions({
  booking,
  catalogue,
}: {
  booking: LocalBooking;
  catalogue: BookingCatalogue | undefined;
}) {
  const { t } = useLingui();
  const texts = useBookingTexts(booking, catalogue);
  const reservation = CONTACT_LINES.find((l) => l.key === 'reservation') ?? CONTACT_LINES[0]!;
  // A booking that will not happen (refused, expired, rejected, cancelled) has no trip to put in
  // a calendar or to share.
  const live = isLiveBooking(booking);

  async function copy() {
    const ok = await copyText(booking.reference);
    showToast(ok ? t`Référence copiée` : t`Impossible de copier la référence`, {
      kind: ok ? 'success' : 'error',
    });
  }

  async function share() {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: booking.reference, text: texts.share });
        return;
      } catch (error) {
        if ((error as Error).name === 'AbortError') return;
      }
    }
    const ok = await copyText(texts.share);
    showToast(ok ? t`Détails copiés : collez-les où vous voulez.` : t`Partage impossible`, {
      kind: ok ? 'success' : 'error',
    });
  }

  function calendar() {
    const blob = new Blob([texts.ics], { type: 'text/calendar;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `kiraa-${booking.reference}.ics`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="secondary" onClick={() => void copy()} data-testid="copy-reference">
        <Trans>Copier</Trans>
      </Button>
      {live && (
        <>
          <Button variant="secondary" onClick={() => void share()} data-testid="share-reference">
            <Trans>Partager</Trans>
          </Button>
          <Button variant="secondary" onClick={calendar} data-testid="add-to-calendar">
            <CalendarIcon aria-hidden="true" />
            <Trans>Ajouter au calendrier</Trans>
          </Button>
        </>
      )}
      <a
        href={whatsappUrl(reservation.phone, texts.whatsapp)}
        target="_blank"
        rel="noopener noreferrer"
        className={buttonClass({ variant: 'secondary' })}
        data-testid="whatsapp-agency"
      >
        <WhatsAppIcon aria-hidden="true" />
        <Trans>Écrire à l’agence sur WhatsApp</Trans>
      </a>
    </div>
  );
}

/** Whether a trip may still happen: not refused here, expired, rejected or cancelled. */
export function isLiveBooking(booking: LocalBooking): boolean {
  return !['needs_attention', 'expired', 'rejected', 'cancelled'].includes(stageOf(booking));
}

/** /booking-success?id=… — the reference at once (guests too, offline too) and what comes next. */
export default function BookingSuccessPage() {
  const { i18n } = useLingui();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const session = useSession();
  const catalogue = useBookingCatalogue();
  const booking = useLiveQuery(() => readLocalBooking(id), [id]);
  useEffect(() => {
    keepRunning('outbox');
    // The agency's answer shows here without a reload: a push, or the checks (src/app/news-task.ts).
    keepRunning('news');
  }, []);

  if (booking === undefined) return <PageSpinner />;
  if (!booking) {
    return (
      <div className="mx-auto flex w-full max-w-2xl flex-col gap-4 px-4 py-6 sm:px-6 md:px-8">
        <Notice tone="warning" live>
          <span data-testid="no-booking-id">
            <Trans>Aucun identifiant de réservation trouvé</Trans>
          </span>
        </Notice>
        <Link to="/cars" className={buttonClass({ variant: 'primary', className: 'self-start' })}>
          <Trans>Voir les voitures</Trans>
        </Link>
      </div>
    );
  }
  const reference = booking.reference;
  const outcome = localOutcome(booking);

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-4 px-4 py-6 sm:px-6 md:px-8">
      <Card className="flex flex-col gap-4 text-center">
        <h1 className="text-2xl font-bold" data-testid="booking-heading" data-stage={outcome.stage}>
          {sayOutcome(i18n, outcome.heading, booking)}
        </h1>
        <p className="text-sm text-fg-muted">
          <Trans>Votre référence de réservation</Trans>
        </p>
        <p
          className="font-mono text-2xl font-bold tracking-wider select-all min-[360px]:text-3xl"
          data-testid="booking-reference"
          aria-live="polite"
        >
          <ReferenceText reference={reference} />
        </p>
        <p className="text-sm">
          <Trans>
            Gardez-la : elle vous permet de retrouver votre réservation et de parler à l’agence.
          </Trans>
        </p>
        <div className="flex justify-center">
          <SuccessActions booking={booking} catalogue={catalogue} />
        </div>
      </Card>
      <Suspense fallback={null}>
        <PushOptIn booking={booking} userId={session.user?.id ?? null} />
      </Suspense>
      <BookingCard booking={booking} catalogue={catalogue} />
      <SyncPanel />
      <div className="flex flex-wrap gap-2">
        {session.status === 'signedIn' ? (
          <Link to="/mybookings" className={buttonClass({ variant: 'secondary' })}>
            <Trans>Mes réservations</Trans>
          </Link>
        ) : (
          <Link to="/guest-booking" className={buttonClass({ variant: 'secondary' })}>
            <Trans>Trouver ma réservation</Trans>
          </Link>
        )}
        <Link to="/cars" className={buttonClass({ variant: 'ghost' })}>
          <Trans>Voir les voitures</Trans>
        </Link>
      </div>
    </div>
  );
}
