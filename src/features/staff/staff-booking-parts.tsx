import { Trans, useLingui } from '@lingui/react/macro';

import { outcomeOf, sayOutcome } from '@/domain/booking-outcomes';
import { formatDateTime } from '@/domain/dates';
import { type Locale, localeNames, localized } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { Facts, type Fact } from '@/ui/facts';
import { MailIcon, PhoneIcon } from '@/ui/icons';
import { EmailText } from '@/ui/email-text';

import { actionCopy } from '@/features/staff/labels';
import type { OptionNames, StaffBooking } from '@/features/staff/staff-api';
import { actionsForBooking, type StaffAction } from '@/features/staff/transitions';

export function useLocale(): Locale {
  const { i18n } = useLingui();
  return (i18n.locale || 'fr') as Locale;
}

type StageFields = Pick<
  StaffBooking,
  'status' | 'user_id' | 'confirm_by' | 'contact_confirmed_at' | 'status_reason'
>;

export function StatusBadge({ booking }: { booking: StageFields }) {
  const { i18n } = useLingui();
  const outcome = outcomeOf(booking, 'staff');
  return (
    <Badge
      tone={outcome.tone}
      data-testid="staff-status"
      data-status={booking.status}
      data-stage={outcome.stage}
    >
      {i18n._(outcome.label)}
    </Badge>
  );
}

/** What the booking's stage means for staff (e.g. the guest's confirmation deadline). */
export function StatusHint({ booking }: { booking: StageFields }) {
  const { i18n } = useLingui();
  const outcome = outcomeOf(booking, 'staff');
  if (!outcome.hint) return null;
  return (
    <p className="text-sm text-fg-muted" data-testid="staff-hint">
      {sayOutcome(i18n, outcome.hint, booking)}
    </p>
  );
}

/** Who to call: name (customer account or guest), phone as a tel: link, email as a mailto: link. */
/** Why the booking was refused or cancelled, when staff said so. */
export function StatusReason({
  booking,
}: {
  booking: Pick<StaffBooking, 'status_reason' | 'status'>;
}) {
  // An expiry's reason is a code; the stage's hint says it in words.
  if (!booking.status_reason || booking.status === 'expired') return null;
  return (
    <p className="text-sm">
      <span className="text-fg-muted">
        <Trans>Motif :</Trans>
      </span>{' '}
      {booking.status_reason}
    </p>
  );
}

export function ContactBlock({ booking }: { booking: StaffBooking }) {
  const { contact } = booking;
  return (
    <div className="flex min-w-0 flex-col gap-1 text-sm" data-testid="staff-contact">
      <p className="flex flex-wrap items-center gap-2">
        <bdi className="font-medium break-words">{contact.name || '—'}</bdi>
        <Badge tone={contact.kind === 'guest' ? 'warning' : 'neutral'}>
          {contact.kind === 'guest' ? <Trans>Sans compte</Trans> : <Trans>Client inscrit</Trans>}
        </Badge>
      </p>
      {contact.phone && (
        <a
          href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`}
          className="inline-flex items-center gap-1.5 self-start text-primary-text underline-offset-2 hover:underline"
          dir="ltr"
        >
          <PhoneIcon size={16} />
          {contact.phone}
        </a>
      )}
      {contact.email && (
        <a
          href={`mailto:${contact.email}`}
          className="inline-flex min-w-0 items-center gap-1.5 self-start text-primary-text underline-offset-2 [overflow-wrap:anywhere] hover:underline"
          dir="ltr"
        >
          <MailIcon size={16} />
          <EmailText email={contact.email} />
        </a>
      )}
      {booking.locale && (
        <p data-testid="staff-contact-language" data-locale={booking.locale}>
          <Trans>Langue du client (écrivez-lui dans cette langue) :</Trans>{' '}
          <strong lang={booking.locale} dir="auto">
            {localeNames[booking.locale]}
          </strong>
        </p>
      )}
    </div>
  );
}

/** Pickup and return: Algiers times and places. */
export function PeriodFacts({ booking }: { booking: StaffBooking }) {
  const { t } = useLingui();
  const locale = useLocale();
  const items: Fact[] = [
    {
      key: 'start',
      label: t({ message: 'Prise en charge', context: 'car pickup' }),
      value: `${formatDateTime(booking.start_at, locale)} · ${localized(booking.pickup?.name, locale)}`,
    },
    {
      key: 'end',
      label: t({ message: 'Retour', context: 'car return' }),
      value: `${formatDateTime(booking.end_at, locale)} · ${localized(booking.dropoff?.name, locale)}`,
    },
  ];
  return <Facts items={items} />;
}

/** Driver, extras, insurance and what the customer asked for. */
export function OptionFacts({
  booking,
  names,
}: {
  booking: StaffBooking;
  names: OptionNames | null;
}) {
  const { t } = useLingui();
  const locale = useLocale();
  const none = t`Aucun`;
  const extras = booking.extras.map((c) => localized(names?.extras[c], locale) || c);
  const insurance = booking.insurance.map((c) => localized(names?.insurance[c], locale) || c);
  const items: Fact[] = [
    {
      key: 'driver',
      label: t`Chauffeur`,
      value: booking.driver_option === 'provided' ? t`Fourni par l’agence` : t`Le client conduit`,
    },
    { key: 'extras', label: t`Services`, value: extras.length ? extras.join(', ') : none },
    {
      key: 'insurance',
      label: t`Assurances`,
      value: insurance.length ? insurance.join(', ') : none,
    },
    ...(booking.from_abroad
      ? [{ key: 'abroad', label: t`Voyageur`, value: t`Arrive de l’étranger (documents de vol)` }]
      : []),
    ...(booking.additional_requests
      ? [
          {
            key: 'requests',
            label: t`Demandes`,
            value: (
              <span className="whitespace-pre-line" dir="auto">
                {booking.additional_requests}
              </span>
            ),
          },
        ]
      : []),
  ];
  return <Facts items={items} />;
}

/** Total (cash at pickup) and the refundable deposit, with the breakdown when asked. */
export function PriceFacts({ booking, full = false }: { booking: StaffBooking; full?: boolean }) {
  const { t } = useLingui();
  const locale = useLocale();
  const money = (n: number) => formatDzd(n, locale);
  const p = booking.price;
  const items: Fact[] = full
    ? [
        { key: 'days', label: t`Jours`, value: p.days, numeric: true },
        { key: 'base', label: t`Prix de base`, value: money(p.base), numeric: true },
        { key: 'extras_total', label: t`Services`, value: money(p.extras_total), numeric: true },
        {
          key: 'insurance_total',
          label: t`Assurances`,
          value: money(p.insurance_total),
          numeric: true,
        },
        { key: 'driver_total', label: t`Chauffeur`, value: money(p.driver_total), numeric: true },
        {
          key: 'pickup_fee',
          label: t`Livraison (prise en charge)`,
          value: money(p.pickup_fee),
          numeric: true,
        },
        {
          key: 'dropoff_fee',
          label: t`Livraison (retour)`,
          value: money(p.dropoff_fee),
          numeric: true,
        },
        { key: 'subtotal', label: t`Sous-total`, value: money(p.subtotal), numeric: true },
        {
          key: 'total',
          label: t`Total (espèces)`,
          value: money(booking.total_dzd),
          numeric: true,
          strong: true,
        },
        { key: 'deposit', label: t`Caution`, value: money(p.deposit), numeric: true },
      ]
    : [
        { key: 'total', label: t`Total (espèces)`, value: money(booking.total_dzd), numeric: true },
        { key: 'deposit', label: t`Caution`, value: money(p.deposit), numeric: true },
      ];
  return <Facts items={items} testId="staff-price" />;
}

/** The moves staff may make now; each opens a confirmation. Disabled offline. */
export function ActionButtons({
  booking,
  disabled,
  onAction,
  describedBy,
}: {
  booking: Pick<
    StaffBooking,
    'status' | 'reference' | 'user_id' | 'confirm_by' | 'contact_confirmed_at'
  >;
  disabled: boolean;
  onAction: (action: StaffAction) => void;
  /** The id of the booking's heading, so each button says which booking it acts on. */
  describedBy?: string;
}) {
  const { i18n } = useLingui();
  const actions = actionsForBooking(booking);
  if (actions.length === 0) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {actions.map((action) => (
        <Button
          key={action.kind}
          size="sm"
          variant={action.destructive ? 'secondary' : 'primary'}
          className={action.destructive ? 'text-danger' : undefined}
          disabled={disabled}
          onClick={() => onAction(action)}
          aria-describedby={describedBy}
          data-action={action.kind}
        >
          {i18n._(actionCopy[action.kind].button)}
        </Button>
      ))}
    </div>
  );
}
