import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { addDays } from '@/features/staff/calendar';
import { algiersToIso, algiersToday } from '@/domain/dates';
import { useOnline } from '@/infra/network';
import { showToast } from '@/infra/toast';
import { Button } from '@/ui/button';

import { exportBookings } from '@/features/staff/calendar-api';
import { bookingsCsv } from '@/features/staff/export';

/** Bookings picked up between two days (both included) as the accountant's CSV file. */
export function ExportPanel() {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const id = useId();
  const today = algiersToday();
  const [first, setFirst] = useState(`${today.slice(0, 7)}-01`);
  const [last, setLast] = useState(today);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    const from = algiersToIso(first, '00:00');
    const to = algiersToIso(addDays(last, 1), '00:00');
    if (!from || !to || last < first) {
      setError(t`Le dernier jour doit être le premier ou après.`);
      return;
    }
    setBusy(true);
    setError(null);
    const result = await exportBookings(from, to);
    setBusy(false);
    if (!result.ok) {
      setError(
        result.offline
          ? t`Connexion impossible : rien n’a été changé. Réessayez une fois en ligne.`
          : i18n._(bookingErrorMessage(result.code)),
      );
      return;
    }
    const blob = new Blob([bookingsCsv(result.data)], { type: 'text/csv;charset=utf-8' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `kiraa-${first}-${last}.csv`;
    link.click();
    URL.revokeObjectURL(link.href);
    const count = result.data.length;
    showToast(t`${count} réservations exportées`, { kind: 'success' });
  }

  const fieldClassName =
    'h-11 w-full min-w-0 rounded-lg border border-line bg-surface px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring';
  return (
    <details className="rounded-xl border border-line bg-surface p-3" data-testid="export-panel">
      <summary className="cursor-pointer text-sm font-medium focus-visible:outline-2 focus-visible:outline-ring">
        <Trans>Exporter pour la comptabilité (CSV)</Trans>
      </summary>
      <form
        noValidate
        className="mt-3 flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <div className="flex min-w-0 flex-1 basis-36 flex-col gap-1">
          <label htmlFor={`${id}-first`} className="text-sm font-medium">
            <Trans>Prises en charge du</Trans>
          </label>
          <input
            id={`${id}-first`}
            type="date"
            value={first}
            onChange={(e) => setFirst(e.target.value)}
            className={fieldClassName}
          />
        </div>
        <div className="flex min-w-0 flex-1 basis-36 flex-col gap-1">
          <label htmlFor={`${id}-last`} className="text-sm font-medium">
            <Trans>au</Trans>
          </label>
          <input
            id={`${id}-last`}
            type="date"
            value={last}
            onChange={(e) => setLast(e.target.value)}
            className={fieldClassName}
          />
        </div>
        <Button type="submit" size="sm" loading={busy} disabled={!online} data-testid="export-csv">
          <Trans>Télécharger le CSV</Trans>
        </Button>
        {error && (
          <p role="alert" className="w-full text-sm text-danger">
            {error}
          </p>
        )}
      </form>
    </details>
  );
}
