import { Trans, useLingui } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { bookingErrorMessage, isRetryableRefusal } from '@/domain/booking-errors';
import { outcomeOf, type Audience, type Outcome } from '@/domain/booking-outcomes';
import { quoteOf } from '@/domain/booking-request';
import { algiersToIso, formatDateTime, isoToAlgiers } from '@/domain/dates';
import type { LocalBooking } from '@/domain/local-booking';
import type { Locale } from '@/domain/locale';
import type { Car } from '@/domain/rows';
import { formatDzd } from '@/domain/money';
import { priceRequest } from '@/domain/pricing';
import { generateReference } from '@/domain/reference';
import { discardUnsentBooking } from '@/sync/outbox/enqueue';
import { retryParked, updateQueuedBooking } from '@/sync/outbox/parked';
import { requestFlush } from '@/sync/sync-engine';
import { Badge } from '@/ui/badge';
import { carIdentity, codeLabel, fuelMessages, transmissionMessages } from '@/ui/car-identity';
import { Button } from '@/ui/button';

import { basicsSchema } from '@/features/booking/basics.schema';
import { readParkedCreate } from '@/features/booking/booking-store';
import { availableCars, useBookingCatalogue } from '@/features/booking/booking-data';
import { FieldError, inputClassName, Notice } from '@/features/booking/form-parts';
import { isEditableRefusal } from '@/features/booking/edit-draft';
import { validationMessages } from '@/features/booking/validation-messages';

/** Who reads a booking of this device: the guest who made it, or the signed-in customer. */
function audienceOf(booking: Pick<LocalBooking, 'is_guest'>): Audience {
  return booking.is_guest ? 'guest' : 'customer';
}

/** The booking as its reader on this device reads it (src/domain/booking-outcomes.ts). */
export function localOutcome(booking: LocalBooking): Outcome {
  return outcomeOf(booking, audienceOf(booking));
}

/** The booking's stage, as a coloured badge. */
export function BookingSyncBadge({ booking }: { booking: LocalBooking }) {
  const { i18n } = useLingui();
  const outcome = localOutcome(booking);
  return (
    <Badge
      tone={outcome.tone}
      data-testid="sync-state"
      data-state={booking.sync_state}
      data-stage={outcome.stage}
    >
      {i18n._(outcome.label)}
    </Badge>
  );
}

const dateCodes = new Set(['dates_in_past', 'invalid_dates', 'rental_too_long']);

/**
 * What to do about a booking the server refused: the reason, and the fix that fits — another car
 * for the same dates (free ones from the device), other dates, try again, or discard.
 */
export function BookingAttention({ booking }: { booking: LocalBooking }) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const catalogue = useBookingCatalogue();
  const [editing, setEditing] = useState(false);
  const navigate = useNavigate();
  const [reviewing, setReviewing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const parked = useLiveQuery(() => readParkedCreate(booking.id), [booking.id]);
  if (booking.sync_state !== 'needs_attention') return null;
  const code = booking.sync_error;
  const alternatives =
    code === 'car_unavailable' && catalogue
      ? availableCars(catalogue, booking.start_at, booking.end_at, booking.car_id).slice(0, 4)
      : [];

  /** What differs from the refused car: year, gearbox, fuel, seats (the price is shown apart). */
  function differences(refusedId: string, car: Car): string[] {
    const before = catalogue?.cars.find((c) => c.id === refusedId);
    const lines: string[] = [];
    const name = car.name;
    if (!before) return [carIdentity(car, i18n)];
    const was = before.name;
    if (before.name !== car.name) lines.push(t`Voiture : ${was} → ${name}`);
    const y1 = String(before.year);
    const y2 = String(car.year);
    if (y1 !== y2) lines.push(t`Année : ${y1} → ${y2}`);
    const g1 = codeLabel(i18n, transmissionMessages, before.transmission);
    const g2 = codeLabel(i18n, transmissionMessages, car.transmission);
    if (g1 !== g2) lines.push(t`Boîte de vitesses : ${g1} → ${g2}`);
    const f1 = codeLabel(i18n, fuelMessages, before.fuel);
    const f2 = codeLabel(i18n, fuelMessages, car.fuel);
    if (f1 !== f2) lines.push(t`Carburant : ${f1} → ${f2}`);
    const s1 = before.seats;
    const s2 = car.seats;
    if (s1 !== s2) lines.push(t`Places : ${s1} → ${s2}`);
    return lines;
  }

  async function act(fn: () => Promise<unknown>) {
    setBusy(true);
    try {
      await fn();
      requestFlush();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Notice tone="danger" className="flex flex-col gap-3" live>
      <p data-testid="attention-reason">
        <strong>{i18n._(bookingErrorMessage(code))}</strong>
      </p>
      {booking.refusal_report === 'notified' && (
        <p data-testid="refusal-notified">
          <Trans>Ce refus et son motif vous ont aussi été envoyés par e-mail.</Trans>
        </p>
      )}

      {code === 'car_unavailable' && (
        <div className="flex flex-col gap-2" data-testid="alternatives">
          {alternatives.length > 0 ? (
            <>
              <p>
                <Trans>Ces voitures sont libres aux mêmes dates :</Trans>
              </p>
              <ul className="flex flex-col gap-2">
                {alternatives.map((car) => {
                  const price =
                    catalogue && priceRequest({ ...quoteOf(booking), car_id: car.id }, catalogue);
                  return (
                    <li key={car.id} className="flex flex-col gap-2" data-testid="alternative">
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <span>
                          <strong>{car.name}</strong>{' '}
                          <span className="text-fg-muted" data-testid="alternative-identity">
                            {carIdentity(car, i18n)}
                          </span>
                          {price && (
                            <>
                              {' '}
                              — <Trans>total</Trans>{' '}
                              <span className="tabular-nums" data-testid="alternative-total">
                                {formatDzd(price.total, locale)}
                              </span>
                            </>
                          )}
                        </span>
                        <Button
                          size="sm"
                          variant="secondary"
                          disabled={busy || !price}
                          aria-expanded={reviewing === car.id}
                          onClick={() => setReviewing(reviewing === car.id ? null : car.id)}
                        >
                          <Trans>Voir cette voiture</Trans>
                        </Button>
                      </div>
                      {reviewing === car.id && price && (
                        <div
                          className="flex flex-col gap-2 rounded-md border border-line p-3"
                          data-testid="alternative-review"
                        >
                          <p>
                            <Trans>Ce qui change :</Trans>
                          </p>
                          <ul className="list-disc ps-5 text-sm">
                            {differences(booking.car_id, car).map((line) => (
                              <li key={line}>{line}</li>
                            ))}
                            <li>
                              <Trans>Total :</Trans>{' '}
                              <span className="tabular-nums">
                                {formatDzd(booking.total_dzd, locale)}
                              </span>{' '}
                              →{' '}
                              <strong className="tabular-nums">
                                {formatDzd(price.total, locale)}
                              </strong>
                            </li>
                          </ul>
                          <p className="text-sm text-fg-muted">
                            <Trans>
                              Les dates, les lieux, les options et vos documents restent les mêmes.
                            </Trans>
                          </p>
                          <div className="flex flex-wrap gap-2">
                            <Button
                              size="sm"
                              disabled={busy}
                              data-testid="alternative-confirm"
                              onClick={() =>
                                act(() =>
                                  updateQueuedBooking(booking.id, { car_id: car.id }, price),
                                )
                              }
                            >
                              <Trans>Envoyer avec cette voiture</Trans>
                            </Button>
                            <Button size="sm" variant="ghost" onClick={() => setReviewing(null)}>
                              <Trans>Annuler</Trans>
                            </Button>
                          </div>
                        </div>
                      )}
                    </li>
                  );
                })}
              </ul>
            </>
          ) : (
            <p>
              <Trans>Aucune autre voiture n’est libre à ces dates sur cet appareil.</Trans>
            </p>
          )}
        </div>
      )}

      {(code === 'car_unavailable' || (code && dateCodes.has(code))) &&
        (editing ? (
          <ChangeDates booking={booking} onDone={() => setEditing(false)} />
        ) : (
          <div>
            <Button size="sm" variant="secondary" onClick={() => setEditing(true)}>
              <Trans>Changer les dates</Trans>
            </Button>
          </div>
        ))}

      {/* Refused for what was typed: the wizard reopens at that field, everything kept
          (src/features/booking/edit-draft.ts). */}
      {parked && isEditableRefusal(code) && (
        <div>
          <Button
            size="sm"
            onClick={() => navigate(`/cars/book?edit=${encodeURIComponent(booking.id)}`)}
            data-testid="edit-details-open"
          >
            <Trans>Modifier mes informations</Trans>
          </Button>
        </div>
      )}

      <div className="flex flex-wrap gap-2">
        {code === 'reference_taken' && (
          <Button
            size="sm"
            disabled={busy}
            onClick={() =>
              act(() =>
                updateQueuedBooking(booking.id, { reference: generateReference() }, booking.price),
              )
            }
          >
            <Trans>Réessayer avec une nouvelle référence</Trans>
          </Button>
        )}
        {parked && isRetryableRefusal(code) && (
          <Button size="sm" disabled={busy} onClick={() => act(() => retryParked(parked.id))}>
            <Trans>Réessayer</Trans>
          </Button>
        )}
        <Button
          size="sm"
          variant="ghost"
          disabled={busy}
          data-testid="discard-booking"
          onClick={() => act(() => discardUnsentBooking(booking.id))}
        >
          <Trans>Abandonner cette réservation</Trans>
        </Button>
      </div>
    </Notice>
  );
}

function ChangeDates({ booking, onDone }: { booking: LocalBooking; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const id = useId();
  const catalogue = useBookingCatalogue();
  const start = isoToAlgiers(booking.start_at);
  const end = isoToAlgiers(booking.end_at);
  const [values, setValues] = useState({
    start_date: start.date,
    start_time: start.time,
    end_date: end.date,
    end_time: end.time,
  });
  const [error, setError] = useState<string | undefined>();

  async function save() {
    const result = basicsSchema(validationMessages(i18n)).safeParse({
      ...values,
      car_id: booking.car_id,
    });
    if (!result.success) {
      setError(result.error.issues[0]?.message);
      return;
    }
    const startAt = algiersToIso(values.start_date, values.start_time)!;
    const endAt = algiersToIso(values.end_date, values.end_time)!;
    const price =
      catalogue &&
      priceRequest({ ...quoteOf(booking), start_at: startAt, end_at: endAt }, catalogue);
    if (!price) {
      setError(validationMessages(i18n).priceUnavailable);
      return;
    }
    await updateQueuedBooking(booking.id, { start_at: startAt, end_at: endAt }, price);
    requestFlush();
    onDone();
  }

  const field = (key: keyof typeof values, type: 'date' | 'time', label: string) => (
    <label className="flex flex-col gap-1 text-xs">
      {label}
      <input
        type={type}
        value={values[key]}
        className={inputClassName}
        onChange={(e) => setValues({ ...values, [key]: e.target.value })}
      />
    </label>
  );

  return (
    <div className="flex flex-col gap-2">
      <div className="grid grid-cols-2 gap-2">
        {field('start_date', 'date', t`Date de prise en charge`)}
        {field('start_time', 'time', t`Heure de prise en charge`)}
        {field('end_date', 'date', t`Date de retour`)}
        {field('end_time', 'time', t`Heure de retour`)}
      </div>
      <FieldError id={`${id}-error`} message={error} />
      <div className="flex gap-2">
        <Button size="sm" onClick={() => void save()}>
          <Trans>Envoyer avec ces dates</Trans>
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          <Trans>Annuler</Trans>
        </Button>
      </div>
      <p className="text-xs text-fg-muted">
        <Trans>Actuellement :</Trans> {formatDateTime(booking.start_at, i18n.locale as Locale)} →{' '}
        {formatDateTime(booking.end_at, i18n.locale as Locale)}
      </p>
    </div>
  );
}
