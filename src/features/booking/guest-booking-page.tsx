import { Trans, useLingui } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useId, useState } from 'react';

import { normalizeReference } from '@/domain/reference';
import { keepRunning } from '@/infra/background';
import { useOnline } from '@/infra/network';
import { Button } from '@/ui/button';

import {
  type GuestLookup,
  lookupGuestBooking,
  readGuestBookings,
  readLocalBooking,
} from '@/features/booking/booking-api';
import { BookingCard } from '@/features/booking/booking-card';
import { useBookingCatalogue } from '@/features/booking/booking-data';
import { Card, describedBy, Field, inputClassName, Notice } from '@/features/booking/form-parts';
import { normalizePhone } from '@/features/booking/services.schema';
import { SyncPanel } from '@/features/booking/sync-panel';

/**
 * /guest-booking — "Find my booking": the bookings made on this device (kept, even offline),
 * and the lookup of any booking by its reference and the email or phone given with it.
 */
export default function GuestBookingPage() {
  const { t } = useLingui();
  const id = useId();
  const online = useOnline();
  const catalogue = useBookingCatalogue();
  const local = useLiveQuery(readGuestBookings, []);
  const [reference, setReference] = useState('');
  const [contact, setContact] = useState('');
  const [errors, setErrors] = useState<{ reference?: string; contact?: string }>({});
  const [result, setResult] = useState<GuestLookup | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    keepRunning('outbox');
  }, []);

  const found = useLiveQuery(
    async () => (result?.kind === 'found' ? readLocalBooking(result.booking.id) : null),
    [result],
  );

  async function search(event: React.FormEvent) {
    event.preventDefault();
    const ref = normalizeReference(reference);
    const raw = contact.trim();
    const value = raw.includes('@') ? raw.toLowerCase() : normalizePhone(raw);
    const next: typeof errors = {};
    const referenceField = t`Référence de réservation`;
    const contactField = t`E-mail ou téléphone`;
    if (!reference.trim()) next.reference = t`${referenceField} est obligatoire`;
    else if (!ref) next.reference = t`La référence ressemble à KR-7K3M-9QXD.`;
    if (!raw) next.contact = t`${contactField} est obligatoire`;
    setErrors(next);
    if (next.reference || next.contact || !ref) return;
    setBusy(true);
    setResult(null);
    try {
      setResult(await lookupGuestBooking(ref, value));
    } catch {
      setResult({ kind: 'error', code: 'network' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-6 sm:px-6 md:px-8">
      <h1 className="text-2xl font-bold">
        <Trans>Trouver ma réservation</Trans>
      </h1>

      <section className="flex flex-col gap-3" aria-labelledby={`${id}-device`}>
        <h2 id={`${id}-device`} className="text-lg font-semibold">
          <Trans>Réservations faites sur cet appareil</Trans>
        </h2>
        {local && local.length === 0 && (
          <p className="text-sm text-fg-muted">
            <Trans>Aucune réservation sans compte n’a été faite sur cet appareil.</Trans>
          </p>
        )}
        {local?.map((booking) => (
          <BookingCard key={booking.id} booking={booking} catalogue={catalogue} />
        ))}
      </section>

      <Card className="flex flex-col gap-4">
        <h2 className="text-lg font-semibold">
          <Trans>Rechercher une réservation</Trans>
        </h2>
        <form noValidate onSubmit={(e) => void search(e)} className="flex flex-col gap-4">
          <Field id={`${id}-ref`} label={t`Référence de réservation`} error={errors.reference}>
            <input
              id={`${id}-ref`}
              dir="ltr"
              autoCapitalize="characters"
              placeholder="KR-7K3M-9QXD"
              className={inputClassName}
              value={reference}
              onChange={(e) => setReference(e.target.value)}
              {...describedBy(`${id}-ref`, errors.reference)}
            />
          </Field>
          <Field
            id={`${id}-contact`}
            label={t`E-mail ou téléphone`}
            error={errors.contact}
            hint={t`Ceux donnés lors de la réservation.`}
          >
            <input
              id={`${id}-contact`}
              dir="ltr"
              autoComplete="email"
              className={inputClassName}
              value={contact}
              onChange={(e) => setContact(e.target.value)}
              {...describedBy(`${id}-contact`, errors.contact, true)}
            />
          </Field>
          {!online && (
            <Notice tone="info">
              <Trans>
                Hors ligne : la recherche a besoin du réseau. Les réservations faites sur cet
                appareil restent affichées ci-dessus.
              </Trans>
            </Notice>
          )}
          <Button type="submit" loading={busy} disabled={!online} className="self-start">
            <Trans>Rechercher</Trans>
          </Button>
        </form>
        <div aria-live="polite">
          {result?.kind === 'not_found' && (
            <Notice tone="warning">
              <span data-testid="lookup-not-found">
                <Trans>Aucune réservation trouvée pour les informations fournies.</Trans>
              </span>
            </Notice>
          )}
          {result?.kind === 'rate_limited' && (
            <Notice tone="warning">
              <Trans>
                Trop de recherches en peu de temps. Patientez une minute, puis réessayez.
              </Trans>
            </Notice>
          )}
          {result?.kind === 'error' && (
            <Notice tone="danger">
              <Trans>La recherche a échoué. Vérifiez votre connexion et réessayez.</Trans>
            </Notice>
          )}
          {result?.kind === 'found' && found && (
            <div data-testid="lookup-result">
              <BookingCard booking={found} catalogue={catalogue} />
            </div>
          )}
        </div>
      </Card>

      <SyncPanel />
    </div>
  );
}
