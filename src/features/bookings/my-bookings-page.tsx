import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';

import { formatDateTime } from '@/domain/dates';
import type { Locale } from '@/domain/locale';
import { keepRunning } from '@/infra/background';
import { useOnline } from '@/infra/network';
import { useSession } from '@/infra/session';
import { Button, buttonClass } from '@/ui/button';
import { CalendarIcon, RefreshIcon } from '@/ui/icons';
import { isolate } from '@/ui/bidi';
import { PageSpinner } from '@/ui/spinner';
import { Tabs, tabPanelProps } from '@/ui/tabs';

import { BookingDetailsDialog } from '@/features/bookings/booking-details';
import { BookingItem } from '@/features/bookings/booking-item';
import { splitBookings, type BookingTab } from '@/features/bookings/booking-lists';
import { CancelBookingDialog } from '@/features/bookings/cancel-dialog';
import { ReviewDialog } from '@/features/bookings/review-dialog';
import {
  useBookingsRefresh,
  useLastRefresh,
  useMyBookingsData,
  useRefusalToasts,
} from '@/features/bookings/use-my-bookings';

type Open = { kind: 'details' | 'cancel' | 'review'; id: string; open: boolean } | null;

const TABS_ID = 'mybookings';

function isTab(value: string | null): value is BookingTab {
  return value === 'current' || value === 'past';
}

/** /mybookings — the signed-in customer's bookings, current and past, from this device. */
export default function MyBookingsPage() {
  const { user } = useSession();
  if (!user) return <PageSpinner />;
  return <MyBookings userId={user.id} />;
}

function MyBookings({ userId }: { userId: string }) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const online = useOnline();
  const data = useMyBookingsData(userId);
  const lastRefresh = useLastRefresh();
  const { refreshing, failed, refresh } = useBookingsRefresh(userId);
  useRefusalToasts(data?.entries);
  const [params, setParams] = useSearchParams();
  const [dialog, setDialog] = useState<Open>(null);
  // `?booking=<id>` (a notification's link): that booking's details, on its tab.
  const linked = params.get('booking');
  const linkedBooking = linked ? data?.bookings.find((b) => b.id === linked) : undefined;
  const linkedTab = linkedBooking
    ? (['current', 'past'] as BookingTab[]).find(
        (k) => splitBookings([linkedBooking], data?.entries)[k].length > 0,
      )
    : undefined;
  const tab: BookingTab = isTab(params.get('tab'))
    ? (params.get('tab') as BookingTab)
    : (linkedTab ?? 'current');
  const open: Open =
    linkedBooking && !dialog?.open ? { kind: 'details', id: linkedBooking.id, open: true } : dialog;
  // Car names, pictures and places come from the synced catalogue.
  useEffect(() => keepRunning('catalogue'), []);

  const lists = splitBookings(data?.bookings ?? [], data?.entries);
  const shown = lists[tab];
  const selected = open ? (data?.bookings.find((b) => b.id === open.id) ?? null) : null;
  const carName = (id: string | undefined) => (id && data?.names.cars.get(id)?.name) || t`Voiture`;
  const last = lastRefresh ? formatDateTime(lastRefresh, locale) : null;

  function show(kind: 'details' | 'cancel' | 'review', id: string) {
    setDialog({ kind, id, open: true });
  }
  function close() {
    setDialog(open ? { ...open, open: false } : null);
    if (linked) {
      const next = new URLSearchParams(params);
      next.delete('booking');
      setParams(next, { replace: true });
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4">
      <title>{t`Mes réservations · Kiraa`}</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">
          <Trans>Mes réservations</Trans>
        </h1>
        <Button
          size="sm"
          variant="secondary"
          loading={refreshing}
          disabled={!online}
          onClick={() => void refresh()}
          data-testid="refresh-bookings"
        >
          {!refreshing && <RefreshIcon size={16} />}
          <Trans>Actualiser</Trans>
        </Button>
      </div>

      <p className="text-sm text-fg-muted" data-testid="bookings-freshness">
        {!online ? (
          last ? (
            <Trans>Hors ligne : voici vos réservations telles qu’au {last}.</Trans>
          ) : (
            <Trans>Hors ligne : voici les réservations enregistrées sur cet appareil.</Trans>
          )
        ) : failed ? (
          <Trans>Impossible de joindre le serveur pour l’instant ; nouvel essai bientôt.</Trans>
        ) : last ? (
          <Trans>Mis à jour le {last}.</Trans>
        ) : null}
      </p>

      {data === undefined ? (
        <PageSpinner />
      ) : (
        <>
          <Tabs
            idPrefix={TABS_ID}
            label={t`Mes réservations`}
            value={tab}
            onChange={(next) =>
              setParams(
                (current) => {
                  const nextParams = new URLSearchParams(current);
                  if (next === 'current') nextParams.delete('tab');
                  else nextParams.set('tab', next);
                  return nextParams;
                },
                { replace: true },
              )
            }
            tabs={[
              { id: 'current', label: t`En cours`, count: lists.current.length },
              { id: 'past', label: t`Passées`, count: lists.past.length },
            ]}
          />
          <div
            {...tabPanelProps(TABS_ID, tab)}
            className="flex flex-col gap-3 focus-visible:outline-none"
          >
            {shown.length === 0 ? (
              <EmptyState tab={tab} />
            ) : (
              <ul className="flex flex-col gap-3" data-testid={`bookings-${tab}`}>
                {shown.map((booking) => (
                  <li key={booking.id}>
                    <BookingItem
                      userId={userId}
                      booking={booking}
                      entries={data.entries.get(booking.id) ?? {}}
                      review={data.reviews.get(booking.id)}
                      names={data.names}
                      onDetails={() => show('details', booking.id)}
                      onCancel={() => show('cancel', booking.id)}
                      onReview={() => show('review', booking.id)}
                    />
                  </li>
                ))}
              </ul>
            )}
          </div>

          <BookingDetailsDialog
            booking={open?.kind === 'details' ? selected : null}
            open={open?.kind === 'details' && open.open && !!selected}
            names={data.names}
            onClose={close}
          />
          <CancelBookingDialog
            booking={open?.kind === 'cancel' ? selected : null}
            open={open?.kind === 'cancel' && open.open && !!selected}
            carName={isolate(carName(selected?.car_id))}
            onClose={close}
          />
          <ReviewDialog
            booking={open?.kind === 'review' ? selected : null}
            open={open?.kind === 'review' && open.open && !!selected}
            carName={isolate(carName(selected?.car_id))}
            userId={userId}
            onClose={close}
          />
        </>
      )}
    </div>
  );
}

function EmptyState({ tab }: { tab: BookingTab }) {
  return (
    <div
      className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-line px-4 py-10 text-center"
      data-testid="bookings-empty"
    >
      <CalendarIcon size={32} className="text-fg-muted" />
      {tab === 'current' ? (
        <>
          <p className="font-medium">
            <Trans>Aucune réservation en cours.</Trans>
          </p>
          <p className="text-sm text-fg-muted">
            <Trans>Vos prochaines locations apparaîtront ici, même hors ligne.</Trans>
          </p>
          <Link to="/cars" className={buttonClass()}>
            <Trans>Réserver une voiture</Trans>
          </Link>
        </>
      ) : (
        <>
          <p className="font-medium">
            <Trans>Aucune réservation passée.</Trans>
          </p>
          <p className="text-sm text-fg-muted">
            <Trans>Les locations terminées, annulées ou refusées apparaîtront ici.</Trans>
          </p>
        </>
      )}
    </div>
  );
}
