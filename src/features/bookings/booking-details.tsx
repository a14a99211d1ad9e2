import { Trans, useLingui } from '@lingui/react/macro';

import { outcomeOf } from '@/domain/booking-outcomes';
import { formatDateTime } from '@/domain/dates';
import type { LocalBooking } from '@/domain/local-booking';
import { type Locale, localized } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { CarPicture } from '@/ui/car-picture';
import { Dialog } from '@/ui/dialog';
import { Facts, type Fact } from '@/ui/facts';
import { carIdentity } from '@/ui/car-identity';

import { BookingHandovers } from '@/features/bookings/booking-handovers';
import { driverLabels, paymentStatusLabels } from '@/features/bookings/labels';
import type { CatalogueNames } from '@/features/bookings/bookings-api';
import { ReferenceText } from '@/ui/reference-text';

/** The price breakdown of docs/database.md, with the refundable deposit beside the total. */
export function PriceBreakdown({ booking }: { booking: LocalBooking }) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const p = booking.price;
  const money = (n: number) => formatDzd(n, locale);
  const rows: Fact[] = [
    { key: 'days', label: t`Nombre de jours`, value: p.days, numeric: true },
    { key: 'base', label: t`Prix de base`, value: money(p.base), numeric: true },
    {
      key: 'extras_total',
      label: t`Services supplémentaires`,
      value: money(p.extras_total),
      numeric: true,
    },
    { key: 'insurance_total', label: t`Assurance`, value: money(p.insurance_total), numeric: true },
    { key: 'driver_total', label: t`Chauffeur`, value: money(p.driver_total), numeric: true },
    {
      key: 'pickup_fee',
      label: t`Frais de livraison (prise en charge)`,
      value: money(p.pickup_fee),
      numeric: true,
    },
    {
      key: 'dropoff_fee',
      label: t`Frais de livraison (retour)`,
      value: money(p.dropoff_fee),
      numeric: true,
    },
    { key: 'subtotal', label: t`Sous-total`, value: money(p.subtotal), numeric: true },
    {
      key: 'total',
      label: t`Total à payer à la prise en charge`,
      value: money(p.total),
      numeric: true,
      strong: true,
    },
    {
      key: 'deposit',
      label: t`Caution remboursable (espèces)`,
      value: money(p.deposit),
      numeric: true,
    },
  ];
  return <Facts items={rows} testId="price-breakdown" />;
}

/** Everything about one booking of the customer, in a dialog. */
export function BookingDetailsDialog({
  booking,
  open,
  names,
  onClose,
}: {
  /** Kept while the dialog closes, so its content stays during the animation. */
  booking: LocalBooking | null;
  open: boolean;
  names: CatalogueNames;
  onClose: () => void;
}) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  if (!booking) return <Dialog open={false} onClose={onClose} title="" />;

  const car = names.cars.get(booking.car_id);
  const place = (id: string) => localized(names.locations.get(id)?.name, locale);
  const none = t`Aucun`;
  const extras = booking.extras.map(
    (code) => localized(names.extras.get(code)?.name, locale) || code,
  );
  const insurance = booking.insurance.map(
    (code) => localized(names.insurance.get(code)?.name, locale) || code,
  );
  const reference = booking.reference;
  const outcome = outcomeOf(booking, 'customer');
  const facts: Fact[] = [
    {
      key: 'status',
      label: t`Statut`,
      value: <Badge tone={outcome.tone}>{i18n._(outcome.label)}</Badge>,
    },
    ...(booking.status_reason
      ? [{ key: 'reason', label: t`Motif`, value: booking.status_reason }]
      : []),
    {
      key: 'start',
      label: t({ message: 'Prise en charge', context: 'car pickup' }),
      value: `${formatDateTime(booking.start_at, locale)} · ${place(booking.pickup_location_id)}`,
    },
    {
      key: 'end',
      label: t({ message: 'Retour', context: 'car return' }),
      value: `${formatDateTime(booking.end_at, locale)} · ${place(booking.dropoff_location_id)}`,
    },
    { key: 'driver', label: t`Conducteur`, value: i18n._(driverLabels[booking.driver_option]) },
    {
      key: 'extras',
      label: t`Services supplémentaires`,
      value: extras.length ? extras.join(', ') : none,
    },
    {
      key: 'insurance',
      label: t`Assurances`,
      value: insurance.length ? insurance.join(', ') : none,
    },
    {
      key: 'abroad',
      label: t`Voyageur venant de l’étranger`,
      value: booking.from_abroad ? t`Oui` : t`Non`,
    },
    {
      key: 'requests',
      label: t`Vos demandes`,
      value: booking.additional_requests ? (
        <span className="whitespace-pre-line" dir="auto">
          {booking.additional_requests}
        </span>
      ) : (
        none
      ),
    },
    ...(booking.notes
      ? [
          {
            key: 'notes',
            label: t`Notes de l’agence`,
            value: (
              <span className="whitespace-pre-line" dir="auto">
                {booking.notes}
              </span>
            ),
          },
        ]
      : []),
    {
      key: 'payment',
      label: t`Paiement`,
      value: i18n._(paymentStatusLabels[booking.payment_status]),
    },
    { key: 'created', label: t`Réservée le`, value: formatDateTime(booking.created_at, locale) },
  ];

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={
        <>
          <Trans>Réservation</Trans> <ReferenceText reference={reference} className="font-mono" />
        </>
      }
      footer={
        <Button variant="secondary" onClick={onClose}>
          <Trans>Fermer</Trans>
        </Button>
      }
      className="max-w-xl"
    >
      <div
        className="flex max-h-[65dvh] flex-col gap-4 overflow-y-auto pb-1"
        data-testid="booking-details"
      >
        <div className="grid grid-cols-[6rem_minmax(0,1fr)] items-center gap-3">
          <CarPicture src={car?.images[0]} alt="" className="rounded-lg" />
          <p className="font-semibold">
            {car?.name ?? t`Voiture`}
            {car && (
              <span className="block text-sm font-normal text-fg-muted" data-testid="car-identity">
                {carIdentity(car, i18n)}
              </span>
            )}
          </p>
        </div>
        <Facts items={facts} />
        <section aria-labelledby={`${booking.id}-price`} className="flex flex-col gap-2">
          <h3 id={`${booking.id}-price`} className="font-semibold">
            <Trans>Détail du prix</Trans>
          </h3>
          <PriceBreakdown booking={booking} />
        </section>
        {booking.user_id && ['reserved', 'in_progress', 'completed'].includes(booking.status) && (
          <BookingHandovers booking={booking} />
        )}
      </div>
    </Dialog>
  );
}
