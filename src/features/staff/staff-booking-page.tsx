import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { stageOutcome } from '@/domain/booking-outcomes';
import { formatDateTime } from '@/domain/dates';
import { useOnline } from '@/infra/network';
import { buttonClass } from '@/ui/button';
import { ArrowStartIcon, DownloadIcon } from '@/ui/icons';
import { PageSpinner } from '@/ui/spinner';
import { carIdentity } from '@/ui/car-identity';

import { HandoverPanel, QueuedHandovers } from '@/features/staff/handover-panel';
import { actorLabels } from '@/features/staff/labels';
import { StaffContactHelp } from '@/features/staff/staff-contact-help';
import { StaffActionDialog } from '@/features/staff/staff-action-dialog';
import {
  DOCUMENT_LINK_SECONDS,
  documentLink,
  fetchBookingHistory,
  fetchOptionNames,
  fetchStaffBooking,
  type BookingEvent,
  type OptionNames,
  type StaffBooking,
} from '@/features/staff/staff-api';
import {
  ActionButtons,
  ContactBlock,
  OptionFacts,
  PeriodFacts,
  PriceFacts,
  StatusBadge,
  StatusHint,
  StatusReason,
  useLocale,
} from '@/features/staff/staff-booking-parts';
import { SecondFactorGate } from '@/features/staff/second-factor';
import { useHandoverLandings } from '@/features/staff/use-handover-landings';
import { LoadErrorNotice, OfflineNotice } from '@/features/staff/staff-notices';
import type { StaffAction } from '@/features/staff/transitions';
import type { LoadError } from '@/features/staff/use-staff-board';
import { ReferenceText } from '@/ui/reference-text';

type Documents = { licence: string | null; flight: string | null; error: string | null };

type Loaded = {
  booking: StaffBooking | null;
  history: BookingEvent[] | null;
  names: OptionNames | null;
};

function Section({ title, children }: { title: React.ReactNode; children: React.ReactNode }) {
  return (
    <section className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-3 sm:p-4">
      <h2 className="font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** Signed links to the booking's files, renewed before they expire. */
function useDocuments(booking: StaffBooking | null, online: boolean): Documents | null {
  const [docs, setDocs] = useState<Documents | null>(null);
  const licencePath = booking?.license_path ?? null;
  const flightPath = booking?.flight_document_path ?? null;
  useEffect(() => {
    if (!online || (!licencePath && !flightPath)) return;
    let cancelled = false;
    const load = async () => {
      const [licence, flight] = await Promise.all([
        licencePath ? documentLink('licenses', licencePath) : null,
        flightPath ? documentLink('flight-documents', flightPath) : null,
      ]);
      if (cancelled) return;
      const failed = [licence, flight].find((r) => r && !r.ok);
      setDocs({
        licence: licence?.ok ? licence.data : null,
        flight: flight?.ok ? flight.data : null,
        error: failed && !failed.ok ? failed.code : null,
      });
    };
    void load();
    const timer = setInterval(() => void load(), DOCUMENT_LINK_SECONDS * 900);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [licencePath, flightPath, online]);
  return docs;
}

/** /staff/bookings/:id — one booking with everything staff need: contact, files, history. */
function StaffBookingScreen() {
  const { id = '' } = useParams();
  const { t, i18n } = useLingui();
  const locale = useLocale();
  const online = useOnline();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<LoadError | null>(null);
  const [action, setAction] = useState<{ action: StaffAction; open: boolean } | null>(null);
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    const [booking, history, names] = await Promise.all([
      fetchStaffBooking(id),
      fetchBookingHistory(id),
      fetchOptionNames(),
    ]);
    if (mine !== generation.current) return;
    if (!booking.ok) {
      setError({ code: booking.code, offline: booking.offline });
      return;
    }
    setError(null);
    setLoaded({
      booking: booking.data,
      history: history.ok ? history.data : null,
      names: names.ok ? names.data : null,
    });
  }, [id]);

  useEffect(() => {
    if (!online) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching is this effect's job
    void reload();
  }, [online, reload]);
  // A pickup or return record that left this phone's outbox adds a line to the history.
  const landed = useCallback(() => void reload(), [reload]);
  useHandoverLandings(id, online, landed);

  const booking = loaded?.booking ?? null;
  const docs = useDocuments(booking, online);

  const back = (
    <Link
      to="/staff"
      className={buttonClass({ variant: 'ghost', size: 'sm', className: 'self-start' })}
    >
      <ArrowStartIcon size={16} />
      <Trans>Toutes les réservations</Trans>
    </Link>
  );

  if (!loaded) {
    return (
      <div className="mx-auto flex w-full max-w-4xl flex-col gap-4">
        {back}
        {!online && <OfflineNotice />}
        <QueuedHandovers bookingId={id} online={online} />
        {error && online ? (
          <LoadErrorNotice error={error} onRetry={() => void reload()} />
        ) : (
          online && <PageSpinner />
        )}
      </div>
    );
  }
  if (!booking) {
    return (
      <div className="mx-auto flex w-full max-w-4xl flex-col gap-4">
        {back}
        <p role="alert" className="text-fg-muted" data-testid="staff-not-found">
          {i18n._(bookingErrorMessage('not_found'))}
        </p>
      </div>
    );
  }

  const reference = booking.reference;
  const titleId = 'staff-booking-title';
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-4" data-testid="staff-booking-page">
      <title>{t`Réservation ${reference} · Personnel · Kiraa`}</title>
      {back}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id={titleId} className="text-2xl font-bold">
          <Trans>Réservation</Trans> <ReferenceText reference={reference} className="font-mono" />
        </h1>
        <StatusBadge booking={booking} />
      </div>
      {!online && <OfflineNotice />}
      {error && online && <LoadErrorNotice error={error} onRetry={() => void reload()} />}
      <ActionButtons
        booking={booking}
        disabled={!online}
        describedBy={titleId}
        onAction={(next) => setAction({ action: next, open: true })}
      />
      <StatusReason booking={booking} />
      <StatusHint booking={booking} />
      <StaffContactHelp
        booking={booking}
        online={online}
        onChanged={() => void reload()}
        describedBy={titleId}
      />

      <div className="grid gap-4 md:grid-cols-2">
        <Section title={<Trans>Client</Trans>}>
          <ContactBlock booking={booking} />
        </Section>
        <Section title={<Trans>Voiture et période</Trans>}>
          {booking.car ? (
            <div>
              <Link
                to={`/cars/${booking.car.slug}`}
                className="font-medium text-primary-text underline-offset-2 hover:underline"
              >
                <bdi>{booking.car.name}</bdi>
              </Link>
              <p className="text-sm text-fg-muted" data-testid="car-identity">
                {carIdentity(booking.car, i18n)}
              </p>
            </div>
          ) : (
            <p>
              <Trans>Voiture</Trans>
            </p>
          )}
          <PeriodFacts booking={booking} />
        </Section>
        <Section title={<Trans>Options</Trans>}>
          <OptionFacts booking={booking} names={loaded.names} />
        </Section>
        <Section title={<Trans>Prix</Trans>}>
          <PriceFacts booking={booking} full />
          <p className="text-sm text-fg-muted">
            {booking.payment_status === 'paid' ? (
              <Trans>Payée.</Trans>
            ) : booking.payment_status === 'refunded' ? (
              <Trans>Remboursée.</Trans>
            ) : (
              <Trans>À encaisser en espèces à la prise en charge, avec la caution.</Trans>
            )}
          </p>
        </Section>
        <Section title={<Trans>Documents</Trans>}>
          <ul className="flex flex-col gap-2 text-sm" data-testid="staff-documents">
            <DocumentItem
              label={<Trans>Permis de conduire</Trans>}
              path={booking.license_path}
              url={docs?.licence ?? null}
              online={online}
            />
            {(booking.from_abroad || booking.flight_document_path) && (
              <DocumentItem
                label={<Trans>Documents de vol</Trans>}
                path={booking.flight_document_path}
                url={docs?.flight ?? null}
                online={online}
              />
            )}
          </ul>
          {docs?.error && (
            <p role="alert" className="text-sm text-danger">
              {docs.error === 'file_missing' ? (
                <Trans>Un fichier est introuvable dans le stockage.</Trans>
              ) : (
                i18n._(bookingErrorMessage(docs.error))
              )}
            </p>
          )}
        </Section>
        {booking.notes && (
          <Section title={<Trans>Notes de l’agence</Trans>}>
            <p className="text-sm whitespace-pre-line" dir="auto">
              {booking.notes}
            </p>
          </Section>
        )}
      </div>

      <Section title={<Trans>État des lieux (prise en charge et retour)</Trans>}>
        <HandoverPanel booking={booking} online={online} />
      </Section>

      <Section title={<Trans>Historique</Trans>}>
        {loaded.history === null ? (
          <p className="text-sm text-fg-muted">
            <Trans>L’historique n’a pas pu être chargé.</Trans>
          </p>
        ) : (
          <ol className="flex flex-col gap-2 text-sm" data-testid="staff-history">
            {loaded.history.map((event) => {
              const when = formatDateTime(event.created_at, locale);
              const who = event.actor_name ?? i18n._(actorLabels[event.actor]);
              return (
                <li
                  key={event.id}
                  className="flex flex-col border-s-2 border-line ps-3"
                  data-status={event.status}
                >
                  <span className="font-medium">
                    {event.status === 'pickup_recorded' ? (
                      <Trans>État des lieux de départ enregistré</Trans>
                    ) : event.status === 'return_recorded' ? (
                      <Trans>État des lieux de retour enregistré</Trans>
                    ) : (
                      i18n._(stageOutcome(event.status, 'staff').label)
                    )}
                  </span>
                  <span className="text-fg-muted">
                    <Trans>
                      le {when}, par {who}
                    </Trans>
                  </span>
                  {event.reason === 'contact_confirmed_by_staff' ? (
                    <span>
                      <Trans>Contact du client confirmé par le personnel (appel).</Trans>
                    </span>
                  ) : event.reason === 'confirmation_extended' ? (
                    <span>
                      <Trans>Délai de confirmation prolongé par le personnel.</Trans>
                    </span>
                  ) : event.reason === 'joined_account' ? (
                    <span>
                      <Trans>
                        Réservation rattachée au compte du client (adresse e-mail prouvée).
                      </Trans>
                    </span>
                  ) : (
                    event.reason && <span dir="auto">{event.reason}</span>
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </Section>

      <StaffActionDialog
        booking={booking}
        action={action?.action ?? null}
        open={!!action?.open}
        onClose={() => setAction((a) => (a ? { ...a, open: false } : null))}
        onChanged={() => void reload()}
      />
    </div>
  );
}

function DocumentItem({
  label,
  path,
  url,
  online,
}: {
  label: React.ReactNode;
  path: string | null;
  url: string | null;
  online: boolean;
}) {
  const name = path?.split('/').pop() ?? '';
  return (
    <li className="flex flex-wrap items-center justify-between gap-2">
      <span>{label}</span>
      {!path ? (
        <span className="text-fg-muted">
          <Trans>Non fourni</Trans>
        </span>
      ) : url && online ? (
        <a
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClass({ size: 'sm', variant: 'secondary' })}
          data-testid="document-link"
        >
          <DownloadIcon size={16} />
          <Trans>Ouvrir {name}</Trans>
        </a>
      ) : (
        <bdi className="text-fg-muted">{name}</bdi>
      )}
    </li>
  );
}

/** Staff screens open at aal2 only: the second-factor step comes first (second-factor.tsx). */
export default function StaffBookingPage() {
  return (
    <SecondFactorGate>
      <StaffBookingScreen />
    </SecondFactorGate>
  );
}
