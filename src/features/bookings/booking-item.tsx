import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link } from 'react-router-dom';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { outcomeOf, sayOutcome } from '@/domain/booking-outcomes';
import { formatDateTime } from '@/domain/dates';
import type { LocalBooking } from '@/domain/local-booking';
import { type Locale, localized } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import { forgetRefusedReview, type MyReview } from '@/sync/my-bookings-sync';
import { dismissParked, retryParked } from '@/sync/outbox/parked';
import { requestFlush } from '@/sync/sync-engine';
import { Badge } from '@/ui/badge';
import { Button, buttonClass } from '@/ui/button';
import { CarPicture } from '@/ui/car-picture';
import { cn } from '@/ui/cn';
import { StarRating } from '@/ui/rating';
import { carIdentity } from '@/ui/car-identity';

import {
  actionsFor,
  fixableCodes,
  reviewViewOf,
  syncViewOf,
  type BookingEntries,
  type SyncView,
} from '@/features/bookings/booking-lists';
import {
  cancelHints,
  cancelLabels,
  cancelRefusedMessage,
  cancelRefusedWithReason,
  cancelTones,
} from '@/features/bookings/labels';
import type { CatalogueNames } from '@/features/bookings/bookings-api';
import { ReferenceText } from '@/ui/reference-text';

function Notice({ tone, children }: { tone: 'warning' | 'danger'; children: React.ReactNode }) {
  return (
    <div
      className={cn(
        'flex flex-col gap-2 rounded-lg border px-3 py-2 text-sm',
        tone === 'danger' ? 'border-danger/50 bg-danger/10' : 'border-warning/50 bg-warning/10',
      )}
    >
      {children}
    </div>
  );
}

/** Runs an outbox change, then asks the sync engine to send what is due. */
function useOutboxAction(): [boolean, (fn: () => Promise<unknown>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  return [
    busy,
    async (fn) => {
      setBusy(true);
      try {
        await fn();
        requestFlush();
      } finally {
        setBusy(false);
      }
    },
  ];
}

/** The one sentence of a refused cancellation (labels.ts). */
export function cancelRefusal(code: string | null, reason: string) {
  return code === 'invalid_status_transition' || code === 'booking_expired' || !code
    ? cancelRefusedMessage
    : cancelRefusedWithReason(reason);
}

function SyncRow({ booking, view }: { booking: LocalBooking; view: SyncView }) {
  const { i18n } = useLingui();
  const [busy, act] = useOutboxAction();
  const code = 'code' in view ? view.code : null;
  const reason = i18n._(bookingErrorMessage(code));
  const cancel = view.kind === 'cancel_queued' || view.kind === 'cancel_refused' ? view : null;
  const hint = outcomeOf(booking, 'customer').hint;
  return (
    <div className="flex flex-col gap-2" data-testid="sync-row" data-sync={view.kind}>
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-fg-muted">
        {cancel?.kind === 'cancel_refused' ? null : cancel ? (
          // The label is the card's status badge; here, what happens next.
          <span>{i18n._(cancelHints[cancel.kind])}</span>
        ) : (
          hint && <span>{sayOutcome(i18n, hint, booking)}</span>
        )}
      </p>
      {view.kind === 'queued' && booking.sync_error && (
        <p className="text-xs" data-testid="booking-waiting">
          {i18n._(bookingErrorMessage(booking.sync_error))}
        </p>
      )}
      {view.kind === 'needs_attention' && (
        <Notice tone="danger">
          <p role="alert" data-testid="attention-reason">
            {reason}
          </p>
          <div className="flex flex-wrap gap-2">
            {code && fixableCodes.has(code) ? (
              <Link
                to={`/booking-success?id=${encodeURIComponent(booking.id)}`}
                className={buttonClass({ size: 'sm' })}
              >
                <Trans>Choisir une autre voiture ou d’autres dates</Trans>
              </Link>
            ) : (
              view.entry && (
                <Button
                  size="sm"
                  loading={busy}
                  onClick={() => void act(() => retryParked(view.entry!.id))}
                >
                  <Trans>Réessayer</Trans>
                </Button>
              )
            )}
          </div>
          <p className="text-xs">
            <Trans>Vous pouvez aussi l’abandonner avec « Annuler la réservation ».</Trans>
          </p>
        </Notice>
      )}
      {view.kind === 'cancel_refused' && (
        <Notice tone="danger">
          <p role="alert" data-testid="cancel-refused">
            {i18n._(cancelRefusal(code, reason))}
          </p>
          <div>
            <Button
              size="sm"
              variant="secondary"
              loading={busy}
              onClick={() => void act(() => dismissParked(view.entry.id))}
            >
              <Trans>J’ai compris</Trans>
            </Button>
          </div>
        </Notice>
      )}
    </div>
  );
}

function ReviewRow({
  userId,
  booking,
  entries,
  review,
}: {
  userId: string;
  booking: LocalBooking;
  entries: BookingEntries;
  review: MyReview | undefined;
}) {
  const { i18n } = useLingui();
  const [busy, act] = useOutboxAction();
  const view = reviewViewOf(entries, review);
  if (view.kind === 'none') return null;
  if (view.kind === 'refused') {
    const reason = i18n._(bookingErrorMessage(view.code));
    return (
      <Notice tone="danger">
        <p role="alert" data-testid="review-refused">
          <strong>
            <Trans>Erreur lors de l’envoi de l’avis</Trans>
          </strong>{' '}
          — {reason}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            loading={busy}
            onClick={() => void act(() => retryParked(view.entry.id))}
          >
            <Trans>Réessayer</Trans>
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={busy}
            onClick={() => void act(() => forgetRefusedReview(userId, booking.id, view.entry.id))}
          >
            <Trans>Abandonner cet avis</Trans>
          </Button>
        </div>
      </Notice>
    );
  }
  const rating = view.review.rating;
  return (
    <div
      className="flex flex-col gap-1 rounded-lg bg-muted px-3 py-2 text-sm"
      data-testid="my-review"
    >
      <p className="flex flex-wrap items-center gap-2">
        <span className="font-medium">
          <Trans>Votre avis</Trans>
        </span>
        <StarRating
          value={rating}
          label={plural(rating, { one: '# étoile sur 5', other: '# étoiles sur 5' })}
        />
        {/* Not "sent" before the server took it (issue 20). */}
        {view.kind === 'queued' && (
          <Badge tone="warning" data-testid="review-queued">
            <Trans>Avis en attente d’envoi</Trans>
          </Badge>
        )}
      </p>
      {view.review.comment && (
        <p className="break-words whitespace-pre-line" dir="auto">
          {view.review.comment}
        </p>
      )}
    </div>
  );
}

/** One booking of the customer: car, reference, dates, places, total, status and sync state. */
export function BookingItem({
  userId,
  booking,
  entries,
  review,
  names,
  onDetails,
  onCancel,
  onReview,
}: {
  userId: string;
  booking: LocalBooking;
  entries: BookingEntries;
  review: MyReview | undefined;
  names: CatalogueNames;
  onDetails: () => void;
  onCancel: () => void;
  onReview: () => void;
}) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const car = names.cars.get(booking.car_id);
  const carName = car?.name ?? t`Voiture`;
  const place = (id: string) => localized(names.locations.get(id)?.name, locale);
  const actions = actionsFor(booking, entries, review);
  const sync = syncViewOf(booking, entries);
  const outcome = outcomeOf(booking, 'customer');
  const reference = booking.reference;
  const titleId = `booking-${booking.id}-title`;

  return (
    <article
      aria-labelledby={titleId}
      className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-3 sm:p-4"
      data-testid="booking-item"
      data-reference={reference}
      data-status={booking.status}
    >
      <div className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-3 sm:grid-cols-[8rem_minmax(0,1fr)]">
        <CarPicture src={car?.images[0]} alt="" className="rounded-lg" />
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap items-start justify-between gap-x-2 gap-y-1">
            <h3 id={titleId} className="min-w-0 font-semibold break-words">
              <bdi>{carName}</bdi>
            </h3>
            {/* A cancellation the server has not taken yet is not "cancelled" (issue 20). */}
            {sync?.kind === 'cancel_queued' ? (
              <Badge tone={cancelTones.cancel_queued} data-testid="booking-status">
                {i18n._(cancelLabels.cancel_queued)}
              </Badge>
            ) : (
              <Badge tone={outcome.tone} data-testid="booking-status">
                {i18n._(outcome.label)}
              </Badge>
            )}
          </div>
          {car && (
            <p className="text-xs text-fg-muted" data-testid="car-identity">
              {carIdentity(car, i18n)}
            </p>
          )}
          <p className="self-start font-mono text-sm" data-testid="booking-reference">
            <ReferenceText reference={reference} />
          </p>
          <p className="text-sm font-semibold tabular-nums" data-testid="booking-total">
            {formatDzd(booking.total_dzd, locale)}
          </p>
        </div>
      </div>

      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-fg-muted">
          <Trans context="car pickup">Prise en charge</Trans>
        </dt>
        <dd className="min-w-0 break-words">
          <time dateTime={booking.start_at}>{formatDateTime(booking.start_at, locale)}</time>
          {' · '}
          {place(booking.pickup_location_id)}
        </dd>
        <dt className="text-fg-muted">
          <Trans context="car return">Retour</Trans>
        </dt>
        <dd className="min-w-0 break-words">
          <time dateTime={booking.end_at}>{formatDateTime(booking.end_at, locale)}</time>
          {' · '}
          {place(booking.dropoff_location_id)}
        </dd>
      </dl>

      {booking.status_reason &&
        (booking.status === 'rejected' || booking.status === 'cancelled') && (
          <p className="text-sm" data-testid="status-reason">
            <span className="text-fg-muted">
              <Trans>Motif :</Trans>
            </span>{' '}
            {booking.status_reason}
          </p>
        )}

      {sync && <SyncRow booking={booking} view={sync} />}
      <ReviewRow userId={userId} booking={booking} entries={entries} review={review} />

      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" onClick={onDetails} aria-describedby={titleId}>
          <Trans>Détails</Trans>
        </Button>
        {actions.review && (
          <Button size="sm" onClick={onReview} aria-describedby={titleId}>
            <Trans>Laisser un avis</Trans>
          </Button>
        )}
        {actions.cancel && (
          <Button
            size="sm"
            variant="ghost"
            className="text-danger"
            onClick={onCancel}
            aria-describedby={titleId}
          >
            <Trans>Annuler la réservation</Trans>
          </Button>
        )}
      </div>
    </article>
  );
}
