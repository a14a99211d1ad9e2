import { Trans, useLingui } from '@lingui/react/macro';
import { ph } from '@lingui/core/macro';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { localized } from '@/domain/locale';
import { LIMITS } from '@/domain/limits';
import { formatDzd } from '@/domain/money';
import type { Localized } from '@/domain/rows';
import { useOnline } from '@/infra/network';
import { showToast } from '@/infra/toast';
import { Badge } from '@/ui/badge';
import { Button, buttonClass } from '@/ui/button';
import { PageSpinner } from '@/ui/spinner';

import {
  loadPrices,
  saveDriverRate,
  savePrice,
  type PriceKind,
  type PricedRow,
} from '@/features/staff/prices-api';
import { nameProblems, parsePrice } from '@/features/staff/prices-form';
import { useLocale } from '@/features/staff/staff-booking-parts';
import { SecondFactorGate } from '@/features/staff/second-factor';
import { LoadErrorNotice, OfflineNotice } from '@/features/staff/staff-notices';
import { useStaffLoad } from '@/features/staff/use-staff-load';

/* eslint-disable lingui/no-unlocalized-strings -- Tailwind classes, not copy */
const inputClass =
  'h-11 w-full min-w-0 rounded-lg border border-line bg-surface px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring aria-invalid:border-danger';
/* eslint-enable lingui/no-unlocalized-strings */

function usePrices(online: boolean) {
  const { data: lists, error, reload } = useStaffLoad(loadPrices, online);
  return { lists, error, reload };
}

/** A field of the price form: a label, an input, its error. */
function TextField({
  label,
  value,
  error,
  onChange,
  dir,
  testId,
}: {
  label: string;
  value: string;
  error?: string | null;
  onChange: (value: string) => void;
  dir?: 'rtl' | 'ltr';
  testId?: string;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        dir={dir}
        className={inputClass}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

function useServerError() {
  const { t, i18n } = useLingui();
  return (result: { code: string; offline: boolean }) =>
    result.offline
      ? t`Connexion impossible : rien n’a été changé. Réessayez une fois en ligne.`
      : i18n._(bookingErrorMessage(result.code));
}

/** The form of one row: its price and its three names. */
function PriceForm({
  row,
  onSaved,
  onCancel,
}: {
  row: PricedRow;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const serverError = useServerError();
  const [price, setPrice] = useState(String(row.price));
  const [name, setName] = useState<Localized>(row.name);
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const value = parsePrice(price);
  const names = nameProblems(name);
  const priceError = shown && value === null ? t`Un nombre entier de DZD, de 0 à 1 000 000` : null;
  const nameError = (lang: keyof Localized) =>
    shown && names[lang]
      ? names[lang] === 'name_required'
        ? t`Obligatoire`
        : t`${ph({ max: LIMITS.name })} caractères au plus`
      : null;

  async function submit() {
    setShown(true);
    if (value === null || Object.keys(names).length > 0) return;
    setBusy(true);
    setFailure(null);
    const result = await savePrice(row, value, name);
    setBusy(false);
    if (!result.ok) return setFailure(serverError(result));
    onSaved();
  }

  return (
    <form
      noValidate
      className="grid grid-cols-1 gap-3 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-testid="price-form"
    >
      <TextField
        label={row.per === 'once' ? t`Frais de livraison (DZD)` : t`Prix (DZD)`}
        value={price}
        error={priceError}
        onChange={setPrice}
        testId="price-input"
      />
      <TextField
        label={t`Nom en français`}
        value={name.fr}
        error={nameError('fr')}
        onChange={(fr) => setName((n) => ({ ...n, fr }))}
      />
      <TextField
        label={t`Nom en anglais`}
        value={name.en}
        error={nameError('en')}
        dir="ltr"
        onChange={(en) => setName((n) => ({ ...n, en }))}
      />
      <TextField
        label={t`Nom en arabe`}
        value={name.ar}
        error={nameError('ar')}
        dir="rtl"
        onChange={(ar) => setName((n) => ({ ...n, ar }))}
      />
      {failure && (
        <p role="alert" className="text-sm text-danger sm:col-span-2">
          {failure}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2 sm:col-span-2">
        <Button variant="secondary" onClick={onCancel}>
          <Trans>Annuler</Trans>
        </Button>
        <Button type="submit" disabled={busy} data-testid="save-price">
          <Trans>Enregistrer</Trans>
        </Button>
      </div>
    </form>
  );
}

function DriverRate({ rate, onSaved }: { rate: number; onSaved: () => void }) {
  const { t } = useLingui();
  const serverError = useServerError();
  const [text, setText] = useState(String(rate));
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const value = parsePrice(text);
  return (
    <form
      noValidate
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (value === null) return setFailure(t`Un nombre entier de DZD, de 0 à 1 000 000`);
        setBusy(true);
        setFailure(null);
        void saveDriverRate(value).then((result) => {
          setBusy(false);
          if (!result.ok) setFailure(serverError(result));
          else onSaved();
        });
      }}
    >
      <div className="min-w-48">
        <TextField
          label={t`Chauffeur, prix par jour (DZD)`}
          value={text}
          error={failure}
          onChange={setText}
          testId="driver-rate-input"
        />
      </div>
      <Button type="submit" disabled={busy || value === rate} data-testid="save-driver-rate">
        <Trans>Enregistrer</Trans>
      </Button>
    </form>
  );
}

/** /staff/prices — places' delivery fees, extras, insurance, the driver (docs/staff-prices.md). */
function StaffPricesScreen() {
  const { t } = useLingui();
  const locale = useLocale();
  const online = useOnline();
  const { lists, error, reload } = usePrices(online);
  const [editing, setEditing] = useState<string | null>(null);
  const sections: [PriceKind, string][] = [
    ['location', t`Lieux et frais de livraison`],
    ['extra', t`Services supplémentaires`],
    ['insurance', t`Assurances`],
  ];
  const unit = (row: PricedRow) =>
    row.per === 'day' ? t`par jour` : row.per === 'rental' ? t`par location` : t`par trajet`;

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-4">
      <title>{t`Prix · Personnel · Kiraa`}</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">
          <Trans>Prix du catalogue</Trans>
        </h1>
        <Link to="/staff/places" className={buttonClass({ size: 'sm', variant: 'ghost' })}>
          <Trans>Lieux et horaires</Trans>
        </Link>
      </div>
      <p className="text-sm text-fg-muted">
        <Trans>
          Un nouveau prix vaut pour les prochains devis et réservations ; les appareils des clients
          le reçoivent à leur prochaine synchronisation. Les réservations déjà faites gardent leur
          prix.
        </Trans>
      </p>
      {!online && <OfflineNotice />}
      {error && online && <LoadErrorNotice error={error} onRetry={reload} />}
      {!lists ? (
        online && !error && <PageSpinner />
      ) : (
        <>
          <section aria-labelledby="driver-title" className="flex flex-col gap-2">
            <h2 id="driver-title" className="text-lg font-semibold">
              <Trans>Chauffeur</Trans>
            </h2>
            <DriverRate
              key={lists.driverRate}
              rate={lists.driverRate}
              onSaved={() => {
                showToast(t`Prix du chauffeur enregistré`, { kind: 'success' });
                reload();
              }}
            />
          </section>
          {sections.map(([kind, title]) => (
            <section key={kind} aria-label={title} className="flex flex-col gap-2">
              <h2 className="text-lg font-semibold">{title}</h2>
              <ul className="flex flex-col gap-2">
                {lists.rows
                  .filter((row) => row.kind === kind)
                  .map((row) => {
                    const name = localized(row.name, locale);
                    const id = `${row.kind}:${row.key}`;
                    const price = formatDzd(row.price, locale);
                    return (
                      <li
                        key={id}
                        className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-3"
                        data-testid="priced-row"
                        data-key={row.key}
                      >
                        <div className="flex flex-wrap items-center justify-between gap-2">
                          <span className="min-w-0">
                            <bdi className="font-medium">{name}</bdi>{' '}
                            <span className="text-sm text-fg-muted">
                              {price} {unit(row)}
                            </span>
                          </span>
                          <div className="flex items-center gap-2">
                            {!row.active && (
                              <Badge tone="neutral">
                                <Trans>Retiré</Trans>
                              </Badge>
                            )}
                            {row.locked ? (
                              <Badge tone="neutral">
                                <Trans>Incluse</Trans>
                              </Badge>
                            ) : (
                              <Button
                                size="sm"
                                variant="secondary"
                                disabled={!online || editing === id}
                                aria-label={t`Modifier : ${name}`}
                                onClick={() => setEditing(id)}
                                data-testid="edit-price"
                              >
                                <Trans>Modifier</Trans>
                              </Button>
                            )}
                          </div>
                        </div>
                        {editing === id && (
                          <PriceForm
                            row={row}
                            onCancel={() => setEditing(null)}
                            onSaved={() => {
                              showToast(t`${name} enregistré`, { kind: 'success' });
                              setEditing(null);
                              reload();
                            }}
                          />
                        )}
                      </li>
                    );
                  })}
              </ul>
            </section>
          ))}
        </>
      )}
    </div>
  );
}

export default function StaffPricesPage() {
  return (
    <SecondFactorGate>
      <StaffPricesScreen />
    </SecondFactorGate>
  );
}
