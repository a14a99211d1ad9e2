import { Trans, useLingui } from '@lingui/react/macro';

import { formatDateTime } from '@/domain/dates';
import type { HandoverRecord } from '@/domain/handover';
import type { Locale } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import { CarOutline } from '@/ui/car-outline';
import { Facts, type Fact } from '@/ui/facts';
import { angleLabels, depositLabels, documentLabels, zoneLabels } from '@/ui/handover-labels';

/**
 * One pickup or return record, as staff and the booking's customer see it: odometer, fuel,
 * document (masked for the customer), deposit, photos and damage marks. `links` are the photos'
 * URLs by path (signed links, or local Blob URLs while a record waits in the outbox).
 */
export function HandoverSummary({
  record,
  links,
  locale,
  showFullNumber = false,
}: {
  record: HandoverRecord;
  links: Record<string, string>;
  locale: Locale;
  showFullNumber?: boolean;
}) {
  const { i18n } = useLingui();
  const fuel = record.fuel_eighths;
  const facts: Fact[] = [
    {
      key: 'recorded_at',
      label: <Trans>Relevé le</Trans>,
      value: formatDateTime(record.recorded_at, locale),
    },
    {
      key: 'odometer',
      label: <Trans>Compteur</Trans>,
      value: `${new Intl.NumberFormat(locale).format(record.odometer_km)} km`,
      numeric: true,
    },
    {
      key: 'fuel',
      label: <Trans>Carburant</Trans>,
      value: <Trans>{fuel}/8 du réservoir</Trans>,
    },
  ];
  if (record.id_document_type) {
    const number = showFullNumber ? record.id_document_number : record.id_document_masked;
    facts.push({
      key: 'document',
      label: <Trans>Pièce d’identité vérifiée</Trans>,
      value: (
        <span>
          {i18n._(documentLabels[record.id_document_type])} <bdi dir="ltr">{number}</bdi>
        </span>
      ),
    });
  }
  if (record.licence_seen) {
    facts.push({
      key: 'licence',
      label: <Trans>Permis de conduire</Trans>,
      value: <Trans>vu</Trans>,
    });
  }
  facts.push({
    key: 'deposit',
    label: <Trans>Caution</Trans>,
    value: (
      <span data-testid="handover-deposit" data-status={record.deposit_status}>
        {i18n._(depositLabels[record.deposit_status])}
        {record.deposit_dzd !== null && ` · ${formatDzd(record.deposit_dzd, locale)}`}
        {record.deposit_kept_dzd !== null && ` · ${formatDzd(record.deposit_kept_dzd, locale)}`}
      </span>
    ),
  });
  if (record.deposit_reason) {
    facts.push({
      key: 'reason',
      label: <Trans>Motif de la retenue</Trans>,
      value: <span dir="auto">{record.deposit_reason}</span>,
    });
  }
  return (
    <div
      className="flex flex-col gap-3"
      data-testid={`handover-${record.kind}`}
      data-odometer={record.odometer_km}
    >
      <Facts items={facts} />
      {record.photos.length > 0 && (
        <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="handover-photos">
          {record.photos.map((photo) => {
            const url = links[photo.path];
            const label = i18n._(angleLabels[photo.angle]);
            return (
              <li key={photo.path} className="flex flex-col gap-1 text-xs text-fg-muted">
                {url ? (
                  <a href={url} target="_blank" rel="noopener noreferrer">
                    <img
                      src={url}
                      alt={label}
                      className="aspect-[4/3] w-full rounded-lg border border-line object-cover"
                      data-testid="handover-photo"
                    />
                  </a>
                ) : (
                  <span className="flex aspect-[4/3] items-center justify-center rounded-lg border border-dashed border-line p-1 text-center">
                    <Trans>Photo indisponible hors ligne</Trans>
                  </span>
                )}
                <span>{label}</span>
              </li>
            );
          })}
        </ul>
      )}
      {record.damage.length > 0 ? (
        <div className="flex flex-wrap items-start gap-3">
          <CarOutline marks={record.damage} className="h-40 w-32 shrink-0 rounded-lg" />
          <ol className="flex min-w-0 flex-1 list-decimal flex-col gap-1 ps-5 text-sm">
            {record.damage.map((mark, i) => (
              <li key={i} data-testid="damage-item">
                {mark.zone ? i18n._(zoneLabels[mark.zone]) : <Trans>Point marqué</Trans>}
                {mark.note && (
                  <>
                    {' — '}
                    <span dir="auto">{mark.note}</span>
                  </>
                )}
              </li>
            ))}
          </ol>
        </div>
      ) : (
        <p className="text-sm text-fg-muted">
          <Trans>Aucun dommage signalé.</Trans>
        </p>
      )}
      {record.notes && (
        <p className="text-sm whitespace-pre-line" dir="auto">
          {record.notes}
        </p>
      )}
    </div>
  );
}
