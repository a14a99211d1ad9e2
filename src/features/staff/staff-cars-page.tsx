import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link } from 'react-router-dom';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { formatDzd } from '@/domain/money';
import { useOnline } from '@/infra/network';
import { showToast } from '@/infra/toast';
import { Badge } from '@/ui/badge';
import { Button, buttonClass } from '@/ui/button';
import { PageSpinner } from '@/ui/spinner';

import { CarFormFields } from '@/features/staff/car-form';
import { CarPicturesPanel } from '@/features/staff/car-pictures-panel';
import {
  carToForm,
  emptyCarForm,
  formToRow,
  slugFor,
  type CarForm,
  type FleetCar,
} from '@/features/staff/fleet';
import { addCar, listFleet, updateCar } from '@/features/staff/fleet-api';
import { useLocale } from '@/features/staff/staff-booking-parts';
import { SecondFactorGate } from '@/features/staff/second-factor';
import { LoadErrorNotice, OfflineNotice } from '@/features/staff/staff-notices';
import { useStaffLoad } from '@/features/staff/use-staff-load';

function CarPrices({ car }: { car: FleetCar }) {
  const locale = useLocale();
  const rate = formatDzd(car.daily_rate_dzd, locale);
  const deposit = formatDzd(car.deposit_dzd, locale);
  return (
    <Trans>
      {rate} par jour · caution {deposit}
    </Trans>
  );
}

function PicturesCount({ count }: { count: number }) {
  return <Trans>Photos ({count})</Trans>;
}

type Editing = { car: FleetCar | null } | null;

function useFleet(online: boolean) {
  const { data: cars, error, reload } = useStaffLoad(listFleet, online);
  return { cars, error, reload };
}

/** /staff/cars — add, edit, retire and bring back cars (docs/fleet.md, "Fleet"). */
function StaffCarsScreen() {
  const { t } = useLingui();
  const online = useOnline();
  const fleet = useFleet(online);
  const [editing, setEditing] = useState<Editing>(null);
  const [pictures, setPictures] = useState<FleetCar | null>(null);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const { i18n } = useLingui();

  function failure(result: { code: string; offline: boolean; constraint?: string | null }) {
    if (result.offline) {
      return t`Connexion impossible : rien n’a été changé. Réessayez une fois en ligne.`;
    }
    if (result.constraint) {
      const rule = result.constraint;
      return t`Le serveur refuse cette valeur (règle ${rule}).`;
    }
    return i18n._(bookingErrorMessage(result.code));
  }

  async function save(form: CarForm) {
    if (!editing) return;
    setBusy(true);
    setServerError(null);
    const row = formToRow(form);
    const result = editing.car
      ? await updateCar(editing.car.id, row)
      : await addCar({ ...row, slug: slugFor(row.name, crypto.randomUUID().slice(0, 6)) });
    setBusy(false);
    if (!result.ok) return setServerError(failure(result));
    const name = result.data.name;
    showToast(t`${name} enregistrée`, { kind: 'success' });
    setEditing(null);
    fleet.reload();
  }

  function picturesLabel(car: FleetCar) {
    const name = car.name;
    const count = car.images.length;
    return t`Photos (${count}) de ${name}`;
  }

  async function setActive(car: FleetCar, active: boolean) {
    const result = await updateCar(car.id, { active });
    const name = car.name;
    if (!result.ok) return showToast(failure(result), { kind: 'error' });
    showToast(active ? t`${name} est de nouveau proposée` : t`${name} est retirée du catalogue`, {
      kind: 'success',
    });
    fleet.reload();
  }

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-4">
      <title>{t`Flotte · Personnel · Kiraa`}</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">
          <Trans>Flotte</Trans>
        </h1>
        <div className="flex flex-wrap gap-2">
          <Link to="/staff/calendar" className={buttonClass({ size: 'sm', variant: 'ghost' })}>
            <Trans>Calendrier de la flotte</Trans>
          </Link>
          <Button
            size="sm"
            disabled={!online || !!editing}
            onClick={() => {
              setServerError(null);
              setEditing({ car: null });
            }}
            data-testid="add-car"
          >
            <Trans>Ajouter une voiture</Trans>
          </Button>
        </div>
      </div>
      {!online && <OfflineNotice />}
      {editing && (
        <section
          aria-labelledby="car-form-title"
          className="rounded-xl border border-line bg-surface p-4"
        >
          <h2 id="car-form-title" className="mb-3 text-lg font-semibold">
            {editing.car ? <Trans>Modifier la voiture</Trans> : <Trans>Nouvelle voiture</Trans>}
          </h2>
          <CarFormFields
            key={editing.car?.id ?? 'new'}
            initial={editing.car ? carToForm(editing.car) : emptyCarForm(new Date().getFullYear())}
            busy={busy}
            serverError={serverError}
            onSubmit={(form) => void save(form)}
            onCancel={() => setEditing(null)}
          />
        </section>
      )}
      {fleet.error && online && <LoadErrorNotice error={fleet.error} onRetry={fleet.reload} />}
      {!fleet.cars ? (
        online && !fleet.error && <PageSpinner />
      ) : (
        <ul className="flex flex-col gap-2" data-testid="fleet-list">
          {fleet.cars.map((car) => (
            <li
              key={car.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-line bg-surface p-3"
              data-testid="fleet-car"
              data-car={car.id}
            >
              <div className="flex min-w-0 flex-col">
                <span className="font-medium">
                  <bdi>{car.name}</bdi> <span className="text-sm text-fg-muted">{car.year}</span>
                </span>
                <span className="text-sm text-fg-muted">
                  <CarPrices car={car} />
                </span>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                {!car.active && (
                  <Badge tone="neutral">
                    <Trans>Retirée</Trans>
                  </Badge>
                )}
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={!online}
                  onClick={() => {
                    setServerError(null);
                    setEditing({ car });
                  }}
                >
                  <Trans>Modifier</Trans>
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={!online}
                  aria-label={picturesLabel(car)}
                  onClick={() => setPictures(pictures?.id === car.id ? null : car)}
                  aria-expanded={pictures?.id === car.id}
                  data-testid="car-pictures-open"
                >
                  <PicturesCount count={car.images.length} />
                </Button>
                <Button
                  size="sm"
                  variant={car.active ? 'danger' : 'secondary'}
                  disabled={!online}
                  onClick={() => void setActive(car, !car.active)}
                  data-testid={car.active ? 'retire-car' : 'restore-car'}
                >
                  {car.active ? <Trans>Retirer</Trans> : <Trans>Remettre au catalogue</Trans>}
                </Button>
              </div>
              {pictures?.id === car.id && (
                <div className="basis-full">
                  <CarPicturesPanel
                    car={pictures}
                    online={online}
                    onChanged={fleet.reload}
                    onClose={() => setPictures(null)}
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export default function StaffCarsPage() {
  return (
    <SecondFactorGate>
      <StaffCarsScreen />
    </SecondFactorGate>
  );
}
