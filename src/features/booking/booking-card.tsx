import { Trans, useLingui } from '@lingui/react/macro';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { sayOutcome } from '@/domain/booking-outcomes';
import { formatDateTime } from '@/domain/dates';
import type { LocalBooking } from '@/domain/local-booking';
import { type Locale, localized } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import { carIdentity } from '@/ui/car-identity';

import type { BookingCatalogue } from '@/features/booking/booking-store';
import { ConfirmContact } from '@/features/booking/confirm-contact';
import { BookingAttention, BookingSyncBadge, localOutcome } from '@/features/booking/sync-status';
import { ReferenceText } from '@/ui/reference-text';

/** One booking as this device knows it: reference, car, dates, places, total, sync state. */
export function BookingCard({
  booking,
  catalogue,
}: {
  booking: LocalBooking;
  catalogue: BookingCatalogue | undefined;
}) {
  const { i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const car = catalogue?.cars.find((c) => c.id === booking.car_id);
  const place = (id: string) =>
    localized(catalogue?.locations.find((l) => l.id === id)?.name, locale);
  const reference = booking.reference;
  const outcome = localOutcome(booking);
  const hint = outcome.hint && sayOutcome(i18n, outcome.hint, booking);
  const next = outcome.next.text && i18n._(outcome.next.text);
  // Waiting out a server limit: why, while it stays queued (it leaves on its own).
  const waiting = outcome.stage === 'queued' && booking.sync_error;
  return (
    <article
      className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-4"
      data-testid="booking-card"
      data-reference={reference}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <strong className="font-mono text-base">
          <ReferenceText reference={reference} />
        </strong>
        <BookingSyncBadge booking={booking} />
      </div>
      <p className="text-sm font-medium">
        <bdi>{car?.name ?? ''}</bdi>
        {car && (
          <span className="block text-xs font-normal text-fg-muted" data-testid="car-identity">
            {carIdentity(car, i18n)}
          </span>
        )}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-fg-muted">
          <Trans context="car pickup">Prise en charge</Trans>
        </dt>
        <dd>
          {formatDateTime(booking.start_at, locale)} · {place(booking.pickup_location_id)}
        </dd>
        <dt className="text-fg-muted">
          <Trans context="car return">Retour</Trans>
        </dt>
        <dd>
          {formatDateTime(booking.end_at, locale)} · {place(booking.dropoff_location_id)}
        </dd>
        <dt className="text-fg-muted">
          <Trans>Total</Trans>
        </dt>
        <dd className="tabular-nums">{formatDzd(booking.total_dzd, locale)}</dd>
      </dl>
      {hint && (
        <p className="text-xs text-fg-muted" data-testid="booking-hint">
          {hint}
        </p>
      )}
      {waiting && (
        <p className="text-xs" data-testid="booking-waiting">
          {i18n._(bookingErrorMessage(booking.sync_error))}
        </p>
      )}
      {booking.status_reason && outcome.stage !== 'expired' && (
        <p className="text-sm" data-testid="booking-reason">
          <Trans>Motif :</Trans> {booking.status_reason}
        </p>
      )}
      {next && outcome.stage !== 'needs_attention' && (
        <p className="text-sm" data-testid="booking-next">
          {next}
        </p>
      )}
      {outcome.next.kind === 'confirm_contact' && (
        <ConfirmContact
          reference={booking.reference}
          bookingId={booking.id}
          codeMailSent={booking.code_mail_sent}
          account={booking.is_guest && !booking.looked_up ? booking : undefined}
        />
      )}
      <BookingAttention booking={booking} />
    </article>
  );
}
