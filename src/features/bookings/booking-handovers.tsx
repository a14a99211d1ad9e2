import { Trans, useLingui } from '@lingui/react/macro';

import type { LocalBooking } from '@/domain/local-booking';
import type { Locale } from '@/domain/locale';
import { useOnline } from '@/infra/network';
import { HandoverSummary } from '@/ui/handover-summary';

import { useMyHandovers } from '@/features/bookings/bookings-api';

/**
 * The agency's pickup and return records of my booking (docs/handovers.md): odometer, fuel,
 * photos, damage marks and the deposit's status; the identity document's number masked.
 */
export function BookingHandovers({ booking }: { booking: LocalBooking }) {
  const { i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const online = useOnline();
  const records = useMyHandovers(booking.id, online);
  if (!records || records.length === 0) return null;
  return (
    <section
      aria-labelledby={`${booking.id}-handovers`}
      className="flex flex-col gap-3"
      data-testid="my-handovers"
    >
      <h3 id={`${booking.id}-handovers`} className="font-semibold">
        <Trans>État des lieux</Trans>
      </h3>
      {records.map((record) => (
        <div key={record.id} className="flex flex-col gap-2 rounded-lg border border-line p-3">
          <h4 className="font-medium">
            {record.kind === 'pickup' ? <Trans>Prise en charge</Trans> : <Trans>Retour</Trans>}
          </h4>
          <HandoverSummary record={record} links={online ? record.links : {}} locale={locale} />
        </div>
      ))}
    </section>
  );
}
