import { Trans, useLingui } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

import { normalizeReference } from '@/domain/reference';
import { keepRunning } from '@/infra/background';
import { useOnline } from '@/infra/network';
import { Button } from '@/ui/button';

import {
  type GuestLookup,
  lookupGuestBooking,
  refreshGuestBookings,
} from '@/features/booking/booking-api';
import {
  forgetGuestBooking,
  readGuestBookings,
  readLocalBooking,
  readLocalBookingByReference,
  readStoredGuestBookings,
} from '@/features/booking/booking-store';
import { BookingCard } from '@/features/booking/booking-card';
import { useBookingCatalogue } from '@/features/booking/booking-data';
import { ConfirmContact } from '@/features/booking/confirm-contact';
import { Card, describedBy, Field, inputClassName, Notice } from '@/features/booking/form-parts';
import { findLocalGuestBooking } from '@/features/booking/guest-lookup';
import { normalizePhone } from '@/domain/phone';
import { SyncPanel } from '@/features/booking/sync-panel';
import { ReferenceText } from '@/ui/reference-text';

/** What a lookup found: the server's answer, or (offline) a booking stored on this device. */
type LookupResult = GuestLookup | { kind: 'found_here'; id: string } | { kind: 'needs_network' };

/**
 * The mail's link, `/guest-booking?ref=…&code=…`: the e-mail is confirmed as the page opens;
 * with `ref` alone, the code is typed.
 */
function ConfirmFromLink() {
  const [params] = useSearchParams();
  const reference = normalizeReference(params.get('ref') ?? '');
  const code = params.get('code') ?? '';
  const local = useLiveQuery(
    async () => (reference ? readLocalBookingByReference(reference) : null),
    [reference],
  );
  if (!reference || local === undefined) return null;
  return (
    <Card className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">
        <Trans>Confirmer mon adresse e-mail</Trans>
      </h2>
      <p className="text-sm">
        <Trans>Réservation</Trans>{' '}
        <strong className="font-mono" data-testid="confirm-reference">
          <ReferenceText reference={reference} />
        </strong>
      </p>
      <ConfirmContact
        reference={reference}
        bookingId={local?.id}
        codeMailSent={local?.code_mail_sent}
        initialCode={code}
        confirmOnOpen={code !== ''}
      />
    </Card>
  );
}

/**
 * "Forget on this device" (a borrowed phone): the booking stays with the agency and can be found
 * again with its reference.
 */
function ForgetBooking({ bookingId, reference }: { bookingId: string; reference: string }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <Button
        size="sm"
        variant="ghost"
        className="self-start"
        onClick={() => setAsking(true)}
        data-testid="forget-booking"
      >
        <Trans>Oublier sur cet appareil</Trans>
      </Button>
    );
  }
  return (
    <div role="group" className="flex flex-wrap items-center gap-2 text-sm">
      <span>
        <Trans>
          Retirer {reference} de cet appareil ? La réservation reste auprès de l’agence : vous la
          retrouverez avec sa référence.
        </Trans>
      </span>
      <Button
        size="sm"
        variant="secondary"
        onClick={() => void forgetGuestBooking(bookingId)}
        data-testid="forget-booking-yes"
      >
        <Trans>Oublier</Trans>
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setAsking(false)}>
        <Trans>Garder</Trans>
      </Button>
    </div>
  );
}

/**
 * /guest-booking — "Find my booking": the bookings made on this device (kept, even offline),
 * the lookup of any booking by its reference and the email or phone given with it (offline: of
 * those stored here), and the confirmation of a guest's e-mail from the mail's link.
 */
export default function GuestBookingPage() {
  const { t } = useLingui();
  const id = useId();
  const online = useOnline();
  const catalogue = useBookingCatalogue();
  const local = useLiveQuery(readGuestBookings, []);
  // The outcome mails' link, /guest-booking?find=<reference>: the lookup with it filled in.
  const [params] = useSearchParams();
  const [reference, setReference] = useState(() => params.get('find') ?? '');
  const [contact, setContact] = useState('');
  const [errors, setErrors] = useState<{ reference?: string; contact?: string }>({});
  const [result, setResult] = useState<LookupResult | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    keepRunning('outbox');
    keepRunning('news');
    if (online) void refreshGuestBookings();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per visit, when online
  }, []);

  const foundId =
    result?.kind === 'found' ? result.booking.id : result?.kind === 'found_here' ? result.id : null;
  const found = useLiveQuery(async () => (foundId ? readLocalBooking(foundId) : null), [foundId]);

  /** Offline, or the server out of reach: the guest bookings stored here answer. */
  async function searchHere(ref: string, value: string): Promise<LookupResult> {
    const stored = await readStoredGuestBookings();
    const match = findLocalGuestBooking(stored, ref, value);
    return match ? { kind: 'found_here', id: match.id } : { kind: 'needs_network' };
  }

  async function search(event: React.FormEvent) {
    event.preventDefault();
    const ref = normalizeReference(reference);
    const raw = contact.trim();
    const value = raw.includes('@') ? raw.toLowerCase() : (normalizePhone(raw) ?? raw);
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
      if (!online) {
        setResult(await searchHere(ref, value));
        return;
      }
      const answer = await lookupGuestBooking(ref, value);
      const here = answer.kind === 'error' ? await searchHere(ref, value) : null;
      setResult(here?.kind === 'found_here' ? here : answer);
    } catch {
      const here = await searchHere(ref, value);
      setResult(here.kind === 'found_here' ? here : { kind: 'error', code: 'network' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-6 sm:px-6 md:px-8">
      <h1 className="text-2xl font-bold">
        <Trans>Trouver ma réservation</Trans>
      </h1>

      <ConfirmFromLink />

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
          <div key={booking.id} className="flex flex-col gap-2" data-testid="device-booking">
            <BookingCard booking={booking} catalogue={catalogue} />
            {booking.sync_state !== 'queued' &&
              booking.sync_state !== 'sending' &&
              booking.sync_state !== 'needs_attention' && (
                <ForgetBooking bookingId={booking.id} reference={booking.reference} />
              )}
          </div>
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
                Hors ligne : seules les réservations enregistrées sur cet appareil peuvent être
                retrouvées.
              </Trans>
            </Notice>
          )}
          <Button type="submit" loading={busy} className="self-start">
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
          {result?.kind === 'needs_network' && (
            <Notice tone="warning">
              <span data-testid="lookup-needs-network">
                <Trans>
                  Aucune réservation de cet appareil ne correspond. Pour chercher sur le serveur,
                  connectez-vous au réseau puis réessayez.
                </Trans>
              </span>
            </Notice>
          )}
          {(result?.kind === 'found' || result?.kind === 'found_here') && found && (
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
