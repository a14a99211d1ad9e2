/**
 * The booking wizard (XState v5, id `bookingWizard`): five steps — basics, price review,
 * location and licence, additional services, review and confirmation.
 *
 * - `wizard.next` carries the current step's form values; the `stepValid` guard validates them
 *   with the step's zod schema (the same one the form uses), so an invalid step is never passed.
 * - Every accepted change is saved by the `persistDraft` action (Dexie, files included), so the
 *   draft survives a reload; on start `loadDraft` finds it and the wizard offers to continue or
 *   discard (`wizard.resume` / `wizard.discard`).
 * - The machine prices the draft itself from the catalogue it is given (`wizard.catalogue`, the
 *   device's synced tables, live) with the rules of src/domain/pricing.ts; on the price and review
 *   steps, when online, `quotePrice` asks the server for its price too.
 * - `wizard.confirm` on the last step runs `submitBooking` (store + outbox); the machine ends in
 *   `done` with the booking id.
 * - Started with `edit` (a refused booking rebuilt: src/features/booking/edit-draft.ts), it skips
 *   the saved draft and opens at `edit.step` with everything filled; the page then provides a
 *   `submitBooking` that rewrites the parked booking instead of queuing a new one.
 * Side effects are actors/actions provided from outside (tests provide fakes).
 */
import { assign, fromPromise, setup } from 'xstate';

import type { PriceBreakdown } from '@/domain/rows';

import { basicsSchema } from '@/features/booking/basics.schema';
import type { ServerQuote } from '@/features/booking/booking-api';
import type { BookingCatalogue } from '@/features/booking/booking-store';
import { confirmSchema } from '@/features/booking/confirm.schema';
import { wizardSteps, type BookingDraft, type WizardStep } from '@/features/booking/draft';
import { priceOfDraft } from '@/features/booking/draft-request';
import { hoursContext, locationSchema } from '@/features/booking/location.schema';
import { priceReviewSchema } from '@/features/booking/price-review.schema';
import { servicesSchema } from '@/features/booking/services.schema';
import type { ValidationMessages } from '@/features/booking/validation-messages';

export type SavedDraft = { draft: BookingDraft; step: WizardStep };

export type WizardInput = {
  /** A fresh draft (new id and reference, prefilled from the URL). */
  draft: BookingDraft;
  isGuest: boolean;
  online: boolean;
  messages: ValidationMessages;
  /** The catalogue the price comes from, when already read (else `wizard.catalogue`). */
  catalogue?: BookingCatalogue | null;
  now?: () => number;
  /** A refused booking to correct: its draft, opened at `step` (no saved draft is offered). */
  edit?: SavedDraft;
};

export type QuoteState = 'idle' | 'checking' | 'confirmed' | 'unavailable';

export type WizardContext = {
  draft: BookingDraft;
  /** The draft found on the device at start, until resumed or discarded. */
  saved: SavedDraft | null;
  isGuest: boolean;
  online: boolean;
  messages: ValidationMessages;
  now: () => number;
  /** The synced catalogue the draft is priced from (null until the device has read it). */
  catalogue: BookingCatalogue | null;
  /** The device's price for the current draft, from `catalogue` (null when it cannot be). */
  price: PriceBreakdown | null;
  /** The server's price (quote_booking), when it could be asked. */
  serverPrice: PriceBreakdown | null;
  quote: QuoteState;
  submitError: string | null;
  bookingId: string | null;
  /** Set when correcting a refused booking: the step the wizard opens at. */
  editStep: WizardStep | null;
};

export type WizardEvent =
  | { type: 'wizard.resume' }
  | { type: 'wizard.discard' }
  | { type: 'wizard.change'; values: Partial<BookingDraft> }
  | { type: 'wizard.next'; values?: Partial<BookingDraft> }
  | { type: 'wizard.back'; values?: Partial<BookingDraft> }
  | { type: 'wizard.goTo'; step: WizardStep }
  | { type: 'wizard.confirm'; values?: Partial<BookingDraft> }
  | { type: 'wizard.catalogue'; catalogue: BookingCatalogue }
  | { type: 'wizard.session'; isGuest: boolean }
  | { type: 'wizard.online'; online: boolean };

/** Validates what a step collects, on the draft with the event's values applied. */
export function isStepValid(
  step: WizardStep,
  draft: BookingDraft,
  c: Pick<WizardContext, 'messages' | 'isGuest' | 'now' | 'price'> &
    Partial<Pick<WizardContext, 'catalogue'>>,
): boolean {
  switch (step) {
    case 'basics':
      return basicsSchema(c.messages, c.now, c.catalogue?.settings?.booking_horizon_days).safeParse(
        draft,
      ).success;
    case 'price':
      return priceReviewSchema(c.messages).safeParse({ price: c.price }).success;
    case 'location':
      return locationSchema(c.messages, hoursContext(draft, c.catalogue)).safeParse(draft).success;
    case 'services':
      return servicesSchema(c.messages, { isGuest: c.isGuest }).safeParse(draft).success;
    case 'review':
      return confirmSchema(c.messages).safeParse(draft).success;
  }
}

function valuesOf(event: WizardEvent): Partial<BookingDraft> {
  return 'values' in event && event.values ? event.values : {};
}

/** Saves the draft as being at `step`. */
function saveAt(step: WizardStep) {
  return {
    type: 'persistDraft' as const,
    params: ({ context }: { context: WizardContext }) => ({ draft: context.draft, step }),
  };
}

/** An accepted change: the event's values applied to the draft, then saved at `step`. */
function mergeAndSaveAt(step: WizardStep) {
  return ['merge' as const, saveAt(step)];
}

/** The price and review steps ask the server for its price, as soon as they are online. */
const quoting = {
  initial: 'checking',
  entry: 'resetQuote',
  states: {
    checking: {
      always: { guard: 'isOffline', target: 'offline' },
      entry: 'quoteChecking',
      invoke: {
        src: 'quotePrice',
        input: ({ context }: { context: WizardContext }) => ({ draft: context.draft }),
        onDone: {
          target: 'settled',
          actions: {
            type: 'quoteReceived',
            params: ({ event }: { event: { output: ServerQuote } }) => event.output,
          },
        },
        onError: { target: 'settled', actions: 'quoteUnavailable' },
      },
    },
    offline: {
      entry: 'quoteUnavailable',
      on: {
        'wizard.online': { guard: 'cameOnline', target: 'checking', actions: 'markOnline' },
      },
    },
    settled: {},
  },
} as const;

export const bookingWizardMachine = setup({
  types: {
    context: {} as WizardContext,
    events: {} as WizardEvent,
    input: {} as WizardInput,
    output: {} as { bookingId: string | null },
  },
  actors: {
    loadDraft: fromPromise<SavedDraft | null>(async () => null),
    quotePrice: fromPromise<ServerQuote, { draft: BookingDraft }>(async () => ({
      ok: false,
      transient: true,
      code: 'not_provided',
    })),
    submitBooking: fromPromise<
      { bookingId: string },
      { draft: BookingDraft; isGuest: boolean; price: PriceBreakdown }
    >(async () => {
      throw new Error('submitBooking is not provided');
    }),
  },
  actions: {
    /** Saves the draft and the step it is at (provided by the page: Dexie). */
    persistDraft: (_, _params: { draft: BookingDraft; step: WizardStep }) => {},
    /** Forgets the saved draft and its files (provided by the page). */
    clearDraft: (_, _params: { draft: BookingDraft }) => {},
    restoreSaved: assign(({ context }) => ({
      draft: context.saved!.draft,
      price: priceOfDraft(context.saved!.draft, context.catalogue),
      saved: null,
    })),
    forgetSaved: assign({ saved: null }),
    merge: assign(({ context, event }) => {
      const draft = { ...context.draft, ...valuesOf(event) };
      return { draft, price: priceOfDraft(draft, context.catalogue) };
    }),
    resetQuote: assign({ serverPrice: null, quote: 'idle' }),
    quoteChecking: assign({ quote: 'checking' }),
    quoteUnavailable: assign({ quote: 'unavailable' }),
    quoteReceived: assign((_, quote: ServerQuote) => ({
      serverPrice: quote.ok ? quote.price : null,
      quote: quote.ok ? 'confirmed' : 'unavailable',
    })),
    markOnline: assign({ online: true }),
  },
  guards: {
    hasSaved: ({ context }) => context.saved !== null,
    savedAt: ({ context }, params: { step: WizardStep }) => context.saved?.step === params.step,
    editAt: ({ context }, params: { step: WizardStep }) => context.editStep === params.step,
    stepValid: ({ context, event }, params: { step: WizardStep }) =>
      isStepValid(params.step, { ...context.draft, ...valuesOf(event) }, context),
    allValid: ({ context, event }) => {
      const draft = { ...context.draft, ...valuesOf(event) };
      return wizardSteps.every((step) => isStepValid(step, draft, context));
    },
    isOnline: ({ context }) => context.online,
    isOffline: ({ context }) => !context.online,
    cameOnline: ({ event }) => event.type === 'wizard.online' && event.online,
    goingTo: ({ event }, params: { step: WizardStep }) =>
      event.type === 'wizard.goTo' && event.step === params.step,
  },
}).createMachine({
  id: 'bookingWizard',
  context: ({ input }) => ({
    draft: input.edit?.draft ?? input.draft,
    saved: null,
    isGuest: input.isGuest,
    online: input.online,
    messages: input.messages,
    now: input.now ?? Date.now,
    catalogue: input.catalogue ?? null,
    price: priceOfDraft(input.edit?.draft ?? input.draft, input.catalogue),
    serverPrice: null,
    quote: 'idle',
    submitError: null,
    bookingId: null,
    editStep: input.edit?.step ?? null,
  }),
  initial: 'loading',
  output: ({ context }) => ({ bookingId: context.bookingId }),
  on: {
    'wizard.catalogue': {
      actions: assign(({ context, event }) => ({
        catalogue: event.catalogue,
        price: priceOfDraft(context.draft, event.catalogue),
      })),
    },
    'wizard.session': { actions: assign({ isGuest: ({ event }) => event.isGuest }) },
    'wizard.online': { actions: assign({ online: ({ event }) => event.online }) },
  },
  states: {
    loading: {
      always: wizardSteps.map((step) => ({
        guard: { type: 'editAt' as const, params: { step } },
        target: step,
      })),
      invoke: {
        src: 'loadDraft',
        onDone: [
          {
            guard: ({ event }) => event.output !== null,
            target: 'offerRestore',
            actions: assign({ saved: ({ event }) => event.output }),
          },
          { target: 'basics' },
        ],
        onError: 'basics',
      },
    },
    offerRestore: {
      on: {
        'wizard.resume': wizardSteps.map((step) => ({
          guard: { type: 'savedAt' as const, params: { step } },
          target: step,
          actions: 'restoreSaved' as const,
        })),
        'wizard.discard': {
          target: 'basics',
          actions: [
            {
              type: 'clearDraft',
              params: ({ context }) => ({ draft: context.saved!.draft }),
            },
            'forgetSaved',
          ],
        },
      },
    },
    basics: {
      on: {
        'wizard.change': { actions: mergeAndSaveAt('basics') },
        'wizard.next': {
          guard: { type: 'stepValid', params: { step: 'basics' } },
          target: 'price',
          actions: mergeAndSaveAt('price'),
        },
      },
    },
    price: {
      ...quoting,
      on: {
        'wizard.next': {
          guard: { type: 'stepValid', params: { step: 'price' } },
          target: 'location',
          actions: saveAt('location'),
        },
        'wizard.back': 'basics',
      },
    },
    location: {
      on: {
        'wizard.change': { actions: mergeAndSaveAt('location') },
        'wizard.next': {
          guard: { type: 'stepValid', params: { step: 'location' } },
          target: 'services',
          actions: mergeAndSaveAt('services'),
        },
        'wizard.back': {
          target: 'price',
          actions: mergeAndSaveAt('price'),
        },
      },
    },
    services: {
      on: {
        'wizard.change': { actions: mergeAndSaveAt('services') },
        'wizard.next': {
          guard: { type: 'stepValid', params: { step: 'services' } },
          target: 'review',
          actions: mergeAndSaveAt('review'),
        },
        'wizard.back': {
          target: 'location',
          actions: mergeAndSaveAt('location'),
        },
      },
    },
    review: {
      ...quoting,
      on: {
        'wizard.change': { actions: mergeAndSaveAt('review') },
        'wizard.back': {
          target: 'services',
          actions: mergeAndSaveAt('services'),
        },
        'wizard.goTo': wizardSteps.map((step) => ({
          guard: { type: 'goingTo' as const, params: { step } },
          target: step,
        })),
        'wizard.confirm': {
          guard: 'allValid',
          target: 'submitting',
          actions: ['merge', assign({ submitError: null })],
        },
      },
    },
    submitting: {
      invoke: {
        src: 'submitBooking',
        input: ({ context }) => ({
          draft: context.draft,
          isGuest: context.isGuest,
          price: context.serverPrice ?? context.price!,
        }),
        onDone: {
          target: 'done',
          actions: assign({ bookingId: ({ event }) => event.output.bookingId }),
        },
        onError: {
          target: 'review',
          actions: assign({ submitError: ({ event }) => String(event.error) }),
        },
      },
    },
    done: { type: 'final' },
  },
});

export function currentStep(value: unknown): WizardStep | null {
  const top = typeof value === 'string' ? value : Object.keys(value as object)[0];
  return (wizardSteps as readonly string[]).includes(top ?? '') ? (top as WizardStep) : null;
}
