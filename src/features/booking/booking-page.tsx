import { Trans, useLingui } from '@lingui/react/macro';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { fromPromise } from 'xstate';

import { algiersToIso, formatDate, isoToAlgiers } from '@/domain/dates';
import type { Locale } from '@/domain/locale';
import { formatDzd } from '@/domain/money';
import { generateReference } from '@/domain/reference';
import { keepRunning } from '@/infra/background';
import { i18n as globalI18n } from '@/infra/i18n';
import { useOnline } from '@/infra/network';
import { signedInUserId, useSessionSoon } from '@/infra/session-soon';
import { Button } from '@/ui/button';
import { carIdentity } from '@/ui/car-identity';
import { cn } from '@/ui/cn';
import { PageSpinner } from '@/ui/spinner';
import { WizardFrame } from '@/ui/wizard-frame';

import type { ServerQuote } from '@/features/booking/booking-api';
import { useBookingCatalogue } from '@/features/booking/booking-data';
import {
  bookingWizardMachine,
  currentStep,
  type WizardEvent,
} from '@/features/booking/booking-wizard.machine';
import {
  emptyDraft,
  wizardSteps,
  type BookingDraft,
  type DraftPrefill,
  type WizardStep,
} from '@/features/booking/draft';
import { quoteOfDraft } from '@/features/booking/draft-request';
import {
  clearDraft,
  loadEditableBooking,
  loadSavedDraft,
  resubmitDraft,
  saveDraft,
  submitDraft,
  type EditableBooking,
} from '@/features/booking/draft-store';
import { Card, Notice } from '@/features/booking/form-parts';
import { BasicsStep } from '@/features/booking/steps/basics-step';
import { LocationStep } from '@/features/booking/steps/location-step';
import { PriceStep } from '@/features/booking/steps/price-step';
import { ReviewStep } from '@/features/booking/steps/review-step';
import { ServicesStep } from '@/features/booking/steps/services-step';
import { validationMessages } from '@/features/booking/validation-messages';

/** `?car=&start=&end=&pickup=` from the car page; dates as Algiers `YYYY-MM-DDTHH:mm` or ISO. */
export function prefillFrom(params: URLSearchParams): DraftPrefill {
  const split = (value: string | null) => {
    if (!value) return {};
    const local = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/.exec(value);
    if (local) return { date: local[1], time: local[2] };
    if (!Number.isNaN(Date.parse(value))) return isoToAlgiers(value);
    return {};
  };
  const start = split(params.get('start'));
  const end = split(params.get('end'));
  const prefill: DraftPrefill = {};
  const car = params.get('car');
  const pickup = params.get('pickup');
  if (car) prefill.car_id = car;
  if (pickup) prefill.pickup_location_id = pickup;
  if (start.date) prefill.start_date = start.date;
  if (start.time) prefill.start_time = start.time;
  if (end.date) prefill.end_date = end.date;
  if (end.time) prefill.end_time = end.time;
  return prefill;
}

function StepIndicator({ step }: { step: WizardStep }) {
  const { t } = useLingui();
  const names: Record<WizardStep, string> = {
    basics: t`Informations de base`,
    price: t`Vérification du prix`,
    location: t`Lieu et permis`,
    services: t`Services supplémentaires`,
    review: t`Vérification et confirmation`,
  };
  const index = wizardSteps.indexOf(step);
  const number = index + 1;
  const total = wizardSteps.length;
  return (
    // Scrolled to (a step change, an error) below the sticky header, never under it.
    <nav aria-label={t`Étapes de la réservation`} className="scroll-mt-24">
      <p className="mb-2 text-sm text-fg-muted" data-testid="wizard-step">
        <Trans>
          Étape {number} sur {total}
        </Trans>
      </p>
      <ol className="grid grid-cols-5 gap-1">
        {wizardSteps.map((s, i) => (
          <li
            key={s}
            aria-current={s === step ? 'step' : undefined}
            className={cn('h-1.5 rounded-full', i <= index ? 'bg-primary' : 'bg-muted')}
          >
            <span className="sr-only">{names[s]}</span>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/**
 * /cars/book — the five-step booking form, online or offline, signed in or not.
 * /cars/book?edit=<bookingId> — the same form correcting a booking refused for what was typed
 * (src/features/booking/edit-draft.ts): opened at the refused field, everything kept.
 */
export default function BookingPage() {
  const session = useSessionSoon();
  const [params] = useSearchParams();
  const editId = params.get('edit');
  const [loaded, setLoaded] = useState<{ id: string; edit: EditableBooking | null } | null>(null);
  useEffect(() => {
    if (!editId) return;
    let live = true;
    void loadEditableBooking(editId).then(
      (found) => live && setLoaded({ id: editId, edit: found }),
      () => live && setLoaded({ id: editId, edit: null }),
    );
    return () => {
      live = false;
    };
  }, [editId]);
  // undefined while the booking of `?edit=` is being read.
  const edit = !editId ? null : loaded?.id === editId ? loaded.edit : undefined;
  if (session.status === 'loading' || edit === undefined) {
    // The frame the shell drew while this code loaded (src/app/routes.tsx): nothing moves.
    return (
      <WizardFrame edit={!!editId}>
        <PageSpinner />
      </WizardFrame>
    );
  }
  if (editId && !edit) {
    return (
      <WizardFrame edit>
        <Notice tone="info">
          <Trans>
            Cette réservation ne peut plus être modifiée ici : elle a déjà été envoyée ou
            abandonnée.
          </Trans>{' '}
          <Link className="underline" to="/guest-booking">
            <Trans>Réservations faites sur cet appareil</Trans>
          </Link>
        </Notice>
      </WizardFrame>
    );
  }
  return edit ? (
    <BookingWizard key={edit.draft.id} isGuest={edit.isGuest} edit={edit} />
  ) : (
    <BookingWizard key="new" isGuest={session.status !== 'signedIn'} />
  );
}

function BookingWizard({
  isGuest,
  edit,
}: {
  isGuest: boolean;
  /** A refused booking being corrected: not saved as the draft, sent in its place. */
  edit?: EditableBooking;
}) {
  const { t, i18n } = useLingui();
  const locale = (i18n.locale || 'fr') as Locale;
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const online = useOnline();
  const catalogue = useBookingCatalogue();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- messages follow the language
  const messages = useMemo(() => validationMessages(i18n), [i18n, i18n.locale]);

  const machine = useMemo(
    () =>
      bookingWizardMachine.provide({
        actors: {
          loadDraft: fromPromise(() => loadSavedDraft()),
          quotePrice: fromPromise<ServerQuote, { draft: BookingDraft }>(async ({ input }) => {
            const quote = quoteOfDraft(input.draft);
            if (!quote) return { ok: false, transient: false, code: 'incomplete' };
            // The server's client is loaded at the first quote, not with the first step.
            const { quotePrice } = await import('@/features/booking/booking-api');
            return quotePrice(quote);
          }),
          submitBooking: fromPromise(async ({ input }) =>
            (edit ? resubmitDraft : submitDraft)({
              ...input,
              userId: await signedInUserId(),
              // The language the traveller uses now (the global i18n: this actor outlives renders).
              locale: (globalI18n.locale || 'fr') as Locale,
            }),
          ),
        },
        actions: {
          persistDraft: (_, p) => {
            // A correction is never the device's draft in progress (that one stays as it was).
            if (edit) return;
            void saveDraft(p.draft, p.step).catch((error: unknown) =>
              console.warn('[booking] draft not saved', error),
            );
          },
          clearDraft: (_, p) => {
            if (edit) return;
            void clearDraft(p.draft);
          },
        },
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one machine per mounted wizard
    [],
  );
  const [snapshot, send] = useMachine(machine, {
    input: {
      draft: emptyDraft(crypto.randomUUID(), generateReference(), prefillFrom(params)),
      edit: edit && { draft: edit.draft, step: edit.step },
      isGuest,
      online,
      messages,
    },
  });
  const { context } = snapshot;
  const submitting = snapshot.matches('submitting');
  const step = submitting ? 'review' : currentStep(snapshot.value);

  useEffect(() => {
    // The wizard reads the catalogue from the device: keep it fresh while booking.
    keepRunning('catalogue');
    keepRunning('outbox');
  }, []);
  useEffect(() => send({ type: 'wizard.session', isGuest }), [isGuest, send]);
  useEffect(() => send({ type: 'wizard.online', online }), [online, send]);

  // The machine prices the draft from the device's catalogue, which stays live.
  useEffect(() => {
    if (catalogue) send({ type: 'wizard.catalogue', catalogue });
  }, [catalogue, send]);

  useEffect(() => {
    if (snapshot.status === 'done' && context.bookingId) {
      navigate(`/booking-success?id=${encodeURIComponent(context.bookingId)}`, { replace: true });
    }
  }, [snapshot.status, context.bookingId, navigate]);

  // Move the focus to the new step's heading so keyboard and screen-reader users follow.
  const headingRef = useRef<HTMLDivElement>(null);
  const lastStep = useRef(step);
  useEffect(() => {
    if (step && lastStep.current && step !== lastStep.current) {
      const heading = headingRef.current?.querySelector<HTMLElement>('h2');
      heading?.setAttribute('tabindex', '-1');
      heading?.focus();
    }
    lastStep.current = step;
  }, [step]);

  const onChange = (values: Partial<BookingDraft>) => send({ type: 'wizard.change', values });
  const go = (event: WizardEvent) => send(event);

  let body;
  if (snapshot.matches('loading') || !catalogue) {
    body = <PageSpinner />;
  } else if (snapshot.matches('offerRestore') && context.saved) {
    const saved = context.saved.draft;
    const savedCar = catalogue.cars.find((c) => c.id === saved.car_id);
    const car = savedCar ? `${savedCar.name} (${carIdentity(savedCar, i18n)})` : t`une voiture`;
    const noon = algiersToIso(saved.start_date, '12:00');
    const from = noon ? formatDate(noon, locale) : '';
    body = (
      <Card className="flex flex-col gap-4">
        <h2 className="text-lg font-semibold">
          <Trans>Continuer votre réservation ?</Trans>
        </h2>
        <p className="text-sm">
          {from ? (
            <Trans>
              Une réservation commencée sur cet appareil vous attend : {car}, à partir du {from}.
            </Trans>
          ) : (
            <Trans>Une réservation commencée sur cet appareil vous attend : {car}.</Trans>
          )}
        </p>
        <div className="flex flex-wrap gap-3">
          <Button onClick={() => send({ type: 'wizard.resume' })} data-testid="draft-resume">
            <Trans>Continuer</Trans>
          </Button>
          <Button
            variant="secondary"
            onClick={() => send({ type: 'wizard.discard' })}
            data-testid="draft-discard"
          >
            <Trans>Abandonner et recommencer</Trans>
          </Button>
        </div>
      </Card>
    );
  } else if (step) {
    const common = { draft: context.draft, catalogue, messages, onChange };
    body = (
      <Card className="flex flex-col gap-6">
        <StepIndicator step={step} />
        {/* The running total while options are chosen (the price and review steps show it in
            full): the device's price of the draft as it stands, live. */}
        {context.price && step !== 'price' && step !== 'review' && (
          <p
            className="flex flex-wrap items-baseline justify-between gap-x-3 rounded-lg bg-muted px-3 py-2 text-sm"
            data-testid="running-total"
          >
            <span>
              <Trans>Total estimé</Trans>
            </span>
            <span className="font-semibold whitespace-nowrap tabular-nums">
              {formatDzd(context.price.total, locale)}
            </span>
          </p>
        )}
        <div ref={headingRef} className="[&_h2]:outline-none" key={step}>
          {step === 'basics' && (
            <BasicsStep {...common} onNext={(values) => go({ type: 'wizard.next', values })} />
          )}
          {step === 'price' && (
            <PriceStep
              price={context.price}
              serverPrice={context.serverPrice}
              quote={context.quote}
              online={online}
              messages={messages}
              onBack={() => go({ type: 'wizard.back' })}
              onNext={() => go({ type: 'wizard.next' })}
            />
          )}
          {step === 'location' && (
            <LocationStep
              {...common}
              onNext={(values) => go({ type: 'wizard.next', values })}
              onBack={(values) => go({ type: 'wizard.back', values })}
            />
          )}
          {step === 'services' && (
            <ServicesStep
              {...common}
              isGuest={context.isGuest}
              onNext={(values) => go({ type: 'wizard.next', values })}
              onBack={(values) => go({ type: 'wizard.back', values })}
            />
          )}
          {step === 'review' && (
            <ReviewStep
              {...common}
              isGuest={context.isGuest}
              price={context.price}
              serverPrice={context.serverPrice}
              quote={context.quote}
              online={online}
              submitting={submitting}
              submitError={context.submitError}
              onBack={(values) => go({ type: 'wizard.back', values })}
              onEdit={(target) => go({ type: 'wizard.goTo', step: target })}
              onConfirm={(values) => go({ type: 'wizard.confirm', values })}
            />
          )}
        </div>
      </Card>
    );
  } else {
    body = <PageSpinner />;
  }

  return (
    <WizardFrame edit={!!edit}>
      {!online && (
        <Notice tone="info">
          <Trans>
            Vous êtes hors ligne. Vous pouvez réserver quand même : votre référence s’affiche tout
            de suite et la réservation part dès que le réseau revient.
          </Trans>
        </Notice>
      )}
      {body}
    </WizardFrame>
  );
}
