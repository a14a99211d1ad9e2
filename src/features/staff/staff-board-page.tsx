import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';

import { algiersToIso, formatDate } from '@/domain/dates';
import { useOnline } from '@/infra/network';
import { Button, buttonClass } from '@/ui/button';
import { SearchIcon } from '@/ui/icons';
import { PageSpinner } from '@/ui/spinner';
import { Tabs, tabPanelProps } from '@/ui/tabs';
import { carIdentity } from '@/ui/car-identity';

import { filtersToParams, parseFilters, statusFilters } from '@/features/staff/filters';
import { statusLabels } from '@/features/staff/labels';
import { StaffContactHelp } from '@/features/staff/staff-contact-help';
import { StaffActionDialog } from '@/features/staff/staff-action-dialog';
import type { OptionNames, StaffBooking } from '@/features/staff/staff-api';
import type { StaffQuery, StaffStatusFilter } from '@/features/staff/staff-search';
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
import { LoadErrorNotice, OfflineNotice } from '@/features/staff/staff-notices';
import { StaffSources } from '@/features/staff/staff-sources';
import { ExportPanel } from '@/features/staff/export-panel';
import type { StaffAction } from '@/features/staff/transitions';
import { useStaffBoard } from '@/features/staff/use-staff-board';
import { ReferenceText } from '@/ui/reference-text';

const TABS_ID = 'staff-status';
const SEARCH_DELAY_MS = 300;

function Filters({ query, onChange }: { query: StaffQuery; onChange: (next: StaffQuery) => void }) {
  const { t } = useLingui();
  const id = useId();
  const [search, setSearch] = useState(query.search);
  // The address changed under us (back, forward, a link): show its search.
  const [asked, setAsked] = useState(query.search);
  if (asked !== query.search) {
    setAsked(query.search);
    setSearch(query.search);
  }
  const latest = useRef({ query, onChange });
  useEffect(() => {
    latest.current = { query, onChange };
  });
  // Typing waits a moment before asking the server; the address keeps what was asked.
  useEffect(() => {
    if (search === latest.current.query.search) return;
    const timer = setTimeout(() => {
      const { query: current, onChange: apply } = latest.current;
      apply({ ...current, search });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const fieldClassName =
    'h-11 w-full min-w-0 rounded-lg border border-line bg-surface px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring';
  return (
    <form
      role="search"
      className="grid grid-cols-1 gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]"
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ ...query, search });
      }}
    >
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-q`} className="text-sm font-medium">
          <Trans>Rechercher</Trans>
        </label>
        <div className="relative">
          <SearchIcon
            size={18}
            className="pointer-events-none absolute inset-y-0 start-3 my-auto text-fg-muted"
          />
          <input
            id={`${id}-q`}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder={t`Référence, nom ou téléphone`}
            className={`${fieldClassName} ps-10`}
            autoComplete="off"
            data-testid="staff-search"
          />
        </div>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-from`} className="text-sm font-medium">
          <Trans>Du</Trans>
        </label>
        <input
          id={`${id}-from`}
          type="date"
          value={query.from ?? ''}
          onChange={(event) => onChange({ ...query, from: event.target.value || null })}
          className={fieldClassName}
          data-testid="staff-from"
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-to`} className="text-sm font-medium">
          <Trans>Au</Trans>
        </label>
        <input
          id={`${id}-to`}
          type="date"
          value={query.to ?? ''}
          onChange={(event) => onChange({ ...query, to: event.target.value || null })}
          className={fieldClassName}
          data-testid="staff-to"
        />
      </div>
    </form>
  );
}

function StaffBookingCard({
  booking,
  names,
  online,
  onAction,
  onChanged,
}: {
  booking: StaffBooking;
  names: OptionNames | null;
  online: boolean;
  onAction: (action: StaffAction) => void;
  onChanged: () => void;
}) {
  const { t, i18n } = useLingui();
  const titleId = `staff-booking-${booking.id}`;
  const reference = booking.reference;
  const days = booking.price.days;
  return (
    <article
      aria-labelledby={titleId}
      className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-3 sm:p-4"
      data-testid="staff-booking"
      data-reference={reference}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={titleId} className="flex flex-wrap items-center gap-2">
          <ReferenceText reference={reference} className="font-mono font-semibold" />
          <span className="text-sm text-fg-muted">
            {booking.car ? (
              <>
                <bdi>{booking.car.name}</bdi> ({carIdentity(booking.car, i18n)})
              </>
            ) : (
              t`Voiture`
            )}{' '}
            · {plural(days, { one: '# jour', other: '# jours' })}
          </span>
        </h2>
        <StatusBadge booking={booking} />
      </div>
      <div className="grid gap-3 md:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-3">
          <PeriodFacts booking={booking} />
          <ContactBlock booking={booking} />
        </div>
        <div className="flex min-w-0 flex-col gap-3">
          <OptionFacts booking={booking} names={names} />
          <PriceFacts booking={booking} />
        </div>
      </div>
      <StatusReason booking={booking} />
      <StatusHint booking={booking} />
      <StaffContactHelp
        booking={booking}
        online={online}
        onChanged={onChanged}
        describedBy={titleId}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <ActionButtons
          booking={booking}
          disabled={!online}
          onAction={onAction}
          describedBy={titleId}
        />
        <Link
          to={`/staff/bookings/${booking.id}`}
          className={buttonClass({ size: 'sm', variant: 'ghost' })}
          aria-describedby={titleId}
        >
          <Trans>Détails, documents et historique</Trans>
        </Link>
      </div>
    </article>
  );
}

/** /staff — the bookings board: pending first, filters by status, dates and search. */
function StaffBoardScreen() {
  const { t, i18n } = useLingui();
  const locale = useLocale();
  const online = useOnline();
  const [params, setParams] = useSearchParams();
  const query = parseFilters(params);
  const board = useStaffBoard(query, online);
  const [pending, setPending] = useState<{
    booking: StaffBooking;
    action: StaffAction;
    open: boolean;
  } | null>(null);

  function change(next: StaffQuery) {
    setParams(filtersToParams(next), { replace: true });
  }

  const fromIso = query.from ? algiersToIso(query.from, '12:00') : null;
  const toIso = query.to ? algiersToIso(query.to, '12:00') : null;
  const from = fromIso ? formatDate(fromIso, locale) : null;
  const to = toIso ? formatDate(toIso, locale) : null;
  const shown = board.rows.length;
  const total = board.total;

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-4">
      <title>{t`Réservations · Personnel · Kiraa`}</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">
          <Trans>Réservations à gérer</Trans>
        </h1>
        <Link to="/staff/calendar" className={buttonClass({ size: 'sm', variant: 'ghost' })}>
          <Trans>Calendrier de la flotte</Trans>
        </Link>
        <Link to="/staff/team" className={buttonClass({ size: 'sm', variant: 'ghost' })}>
          <Trans>Inviter un membre</Trans>
        </Link>
        <Link to="/staff/places" className={buttonClass({ size: 'sm', variant: 'ghost' })}>
          <Trans>Lieux et horaires</Trans>
        </Link>
        <Button
          size="sm"
          variant="secondary"
          loading={board.loading && board.rows.length > 0}
          disabled={!online}
          onClick={() => void board.reload()}
        >
          <Trans>Actualiser</Trans>
        </Button>
      </div>
      {!online && <OfflineNotice />}
      <StaffSources online={online} onChanged={() => void board.reload()} />
      <ExportPanel />
      <Filters query={query} onChange={change} />
      <Tabs
        idPrefix={TABS_ID}
        label={t`Statut`}
        value={query.status}
        onChange={(status: StaffStatusFilter) => change({ ...query, status })}
        tabs={statusFilters.map((status) => ({
          id: status,
          label: i18n._(statusLabels[status]),
          count:
            status === 'all' || !board.counts
              ? undefined
              : board.counts[status as keyof typeof board.counts],
        }))}
        className="overflow-x-auto"
      />
      <div {...tabPanelProps(TABS_ID, query.status)} className="flex flex-col gap-3">
        {board.error && online && (
          <LoadErrorNotice error={board.error} onRetry={() => void board.reload()} />
        )}
        {(from || to) && (
          <p className="text-sm text-fg-muted">
            {from && to ? (
              <Trans>
                Locations entre le {from} et le {to}.
              </Trans>
            ) : from ? (
              <Trans>Locations qui se terminent le {from} ou après.</Trans>
            ) : (
              <Trans>Locations qui commencent le {to} ou avant.</Trans>
            )}
          </p>
        )}
        {board.loading && board.rows.length === 0 && !board.error ? (
          online && <PageSpinner />
        ) : board.rows.length === 0 && !board.error ? (
          <p
            className="rounded-xl border border-dashed border-line px-4 py-10 text-center text-fg-muted"
            data-testid="staff-empty"
          >
            <Trans>Aucune réservation ne correspond.</Trans>
          </p>
        ) : (
          <>
            <p className="text-sm text-fg-muted" aria-live="polite">
              <Trans>
                {shown} sur {total}
              </Trans>
            </p>
            <ul className="flex flex-col gap-3" aria-busy={board.loading}>
              {board.rows.map((booking) => (
                <li key={booking.id}>
                  <StaffBookingCard
                    booking={booking}
                    names={board.names}
                    online={online}
                    onAction={(action) => setPending({ booking, action, open: true })}
                    onChanged={() => void board.reload()}
                  />
                </li>
              ))}
            </ul>
            {shown < total && (
              <Button
                variant="secondary"
                className="self-center"
                loading={board.loadingMore}
                disabled={!online}
                onClick={() => void board.loadMore()}
              >
                <Trans>Afficher plus</Trans>
              </Button>
            )}
          </>
        )}
      </div>
      <StaffActionDialog
        booking={pending?.booking ?? null}
        action={pending?.action ?? null}
        open={!!pending?.open}
        onClose={() => setPending((p) => (p ? { ...p, open: false } : null))}
        onChanged={() => void board.reload()}
      />
    </div>
  );
}

/** Staff screens open at aal2 only: the second-factor step comes first (second-factor.tsx). */
export default function StaffBoardPage() {
  return (
    <SecondFactorGate>
      <StaffBoardScreen />
    </SecondFactorGate>
  );
}
