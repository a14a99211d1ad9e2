import { i18n } from '@lingui/core';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';

import type { PriceBreakdown } from '@/domain/rows';
import { price } from '@/sync/outbox/testing/fake-server';

import type { ServerQuote } from '@/features/booking/booking-api';
import type { BookingCatalogue } from '@/features/booking/booking-store';
import {
  bookingWizardMachine,
  currentStep,
  type SavedDraft,
} from '@/features/booking/booking-wizard.machine';
import { emptyDraft, type BookingDraft, type DraftFile } from '@/features/booking/draft';
import { validationMessages } from '@/features/booking/validation-messages';

i18n.loadAndActivate({ locale: 'fr', messages: {} });
const messages = validationMessages(i18n);
const NOW = Date.parse('2030-01-01T09:00:00Z');

/** A catalogue in which `basics` (two days of car-1 from loc-1) costs `price`. */
const catalogue = {
  cars: [{ id: 'car-1', daily_rate_dzd: 5000, deposit_dzd: 30000, active: true }],
  locations: [
    { id: 'loc-1', delivery_fee_dzd: 0, active: true },
    { id: 'loc-2', delivery_fee_dzd: 1500, active: true },
  ],
  extras: [],
  insurance: [{ code: 'civil_liability', price_dzd_per_day: 0, included: true, active: true }],
  busy: [],
  settings: { driver_per_day_dzd: 3000 },
} as unknown as BookingCatalogue;

const licence: DraftFile = {
  id: 'f1',
  name: 'permis.pdf',
  type: 'application/pdf',
  size: 1000,
  bucket: 'licenses',
  path: 'b1/licence-f1.pdf',
};

const basics: Partial<BookingDraft> = {
  car_id: 'car-1',
  start_date: '2030-01-10',
  start_time: '10:00',
  end_date: '2030-01-12',
  end_time: '10:00',
};
const location: Partial<BookingDraft> = {
  pickup_location_id: 'loc-1',
  dropoff_same: true,
  driver_option: 'self',
  licence,
};
const contact: Partial<BookingDraft> = {
  guest_name: 'Amina Benali',
  guest_phone: '+213555123456',
  guest_email: 'amina@example.com',
};

function setup(
  opts: {
    saved?: SavedDraft | null;
    online?: boolean;
    isGuest?: boolean;
    quote?: ServerQuote;
    submit?: () => Promise<{ bookingId: string }>;
  } = {},
) {
  const persist = vi.fn();
  const clear = vi.fn();
  const quotes: BookingDraft[] = [];
  const submits: { draft: BookingDraft; isGuest: boolean; price: PriceBreakdown }[] = [];
  const machine = bookingWizardMachine.provide({
    actors: {
      loadDraft: fromPromise(async () => opts.saved ?? null),
      quotePrice: fromPromise<ServerQuote, { draft: BookingDraft }>(async ({ input }) => {
        quotes.push(input.draft);
        return opts.quote ?? { ok: true, price };
      }),
      submitBooking: fromPromise<
        { bookingId: string },
        { draft: BookingDraft; isGuest: boolean; price: PriceBreakdown }
      >(async ({ input }) => {
        submits.push(input);
        return opts.submit ? opts.submit() : { bookingId: input.draft.id };
      }),
    },
    actions: {
      persistDraft: (_, params) => persist(params),
      clearDraft: (_, params) => clear(params),
    },
  });
  const actor = createActor(machine, {
    input: {
      draft: emptyDraft('b1', 'KR-0000-0001'),
      isGuest: opts.isGuest ?? true,
      online: opts.online ?? true,
      messages,
      now: () => NOW,
    },
  });
  actor.start();
  return { actor, persist, clear, quotes, submits };
}

const step = (actor: ReturnType<typeof setup>['actor']) => currentStep(actor.getSnapshot().value);

async function toReview(opts: Parameters<typeof setup>[0] = {}) {
  const s = setup(opts);
  await waitFor(s.actor, (snap) => snap.matches('basics'));
  s.actor.send({ type: 'wizard.next', values: basics });
  s.actor.send({ type: 'wizard.catalogue', catalogue });
  s.actor.send({ type: 'wizard.next' });
  s.actor.send({ type: 'wizard.next', values: location });
  s.actor.send({ type: 'wizard.next', values: opts.isGuest === false ? {} : contact });
  expect(step(s.actor)).toBe('review');
  return s;
}

describe('bookingWizard machine', () => {
  it('holds step 1 to the synced booking horizon, like create_booking', async () => {
    const { actor } = setup();
    await waitFor(actor, (s) => s.matches('basics'));
    // 2030-07-01 is 181 days after NOW: within the default 365, beyond a synced 180.
    const far = { ...basics, start_date: '2030-07-01', end_date: '2030-07-03' };
    actor.send({
      type: 'wizard.catalogue',
      catalogue: {
        ...catalogue,
        settings: { driver_per_day_dzd: 3000, booking_horizon_days: 180 },
      },
    });
    actor.send({ type: 'wizard.next', values: far });
    expect(step(actor)).toBe('basics');
    actor.send({ type: 'wizard.catalogue', catalogue });
    actor.send({ type: 'wizard.next', values: far });
    expect(step(actor)).toBe('price');
  });

  it('starts on basics when no draft was saved', async () => {
    const { actor } = setup();
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches('basics'));
    expect(actor.getSnapshot().context.draft.reference).toBe('KR-0000-0001');
  });

  it('offers a saved draft, and resumes it at its step', async () => {
    const saved = { draft: { ...emptyDraft('old', 'KR-OLD0-0000'), ...basics }, step: 'location' };
    const { actor } = setup({ saved: saved as SavedDraft });
    await waitFor(actor, (s) => s.matches('offerRestore'));
    actor.send({ type: 'wizard.next', values: basics });
    expect(actor.getSnapshot().value).toBe('offerRestore');
    actor.send({ type: 'wizard.resume' });
    expect(step(actor)).toBe('location');
    expect(actor.getSnapshot().context.draft.id).toBe('old');
    expect(actor.getSnapshot().context.saved).toBeNull();
  });

  it.each(['basics', 'price', 'services', 'review'] as const)(
    'resumes a draft saved at %s',
    async (at) => {
      const saved = { draft: emptyDraft('old', 'KR-OLD0-0000'), step: at };
      const { actor } = setup({ saved, online: false });
      await waitFor(actor, (s) => s.matches('offerRestore'));
      actor.send({ type: 'wizard.resume' });
      expect(step(actor)).toBe(at);
    },
  );

  it('discards a saved draft: cleared, and a fresh one starts', async () => {
    const saved = { draft: emptyDraft('old', 'KR-OLD0-0000'), step: 'services' as const };
    const { actor, clear } = setup({ saved });
    await waitFor(actor, (s) => s.matches('offerRestore'));
    actor.send({ type: 'wizard.discard' });
    expect(step(actor)).toBe('basics');
    expect(clear).toHaveBeenCalledWith({ draft: saved.draft });
    expect(actor.getSnapshot().context.draft.id).toBe('b1');
  });

  it('starts fresh when the saved draft cannot be read', async () => {
    const machine = bookingWizardMachine.provide({
      actors: {
        loadDraft: fromPromise<SavedDraft | null>(async () => {
          throw new Error('IndexedDB blocked');
        }),
      },
    });
    const actor = createActor(machine, {
      input: { draft: emptyDraft('b1', 'KR-0000-0001'), isGuest: true, online: true, messages },
    }).start();
    await waitFor(actor, (s) => s.matches('basics'));
  });

  it('does not pass basics while invalid: empty, pickup in the past, return before pickup', async () => {
    const { actor, persist } = setup();
    await waitFor(actor, (s) => s.matches('basics'));
    actor.send({ type: 'wizard.next' });
    expect(step(actor)).toBe('basics');
    actor.send({ type: 'wizard.next', values: { ...basics, start_date: '2029-12-31' } });
    expect(step(actor)).toBe('basics');
    actor.send({ type: 'wizard.next', values: { ...basics, end_date: '2030-01-09' } });
    expect(step(actor)).toBe('basics');
    actor.send({ type: 'wizard.next', values: { ...basics, end_date: '2030-05-01' } });
    expect(step(actor)).toBe('basics');
    expect(persist).not.toHaveBeenCalled();
    actor.send({ type: 'wizard.next', values: basics });
    expect(step(actor)).toBe('price');
    expect(persist).toHaveBeenLastCalledWith({
      draft: expect.objectContaining(basics),
      step: 'price',
    });
  });

  it('saves changes as they are typed', async () => {
    const { actor, persist } = setup();
    await waitFor(actor, (s) => s.matches('basics'));
    actor.send({ type: 'wizard.change', values: { car_id: 'car-9' } });
    expect(actor.getSnapshot().context.draft.car_id).toBe('car-9');
    expect(persist).toHaveBeenCalledWith({
      draft: expect.objectContaining({ car_id: 'car-9' }),
      step: 'basics',
    });
  });

  it('asks the server for its price on the price step when online', async () => {
    const serverPrice = { ...price, total: 12000, subtotal: 12000 };
    const { actor, quotes } = setup({ quote: { ok: true, price: serverPrice } });
    await waitFor(actor, (s) => s.matches('basics'));
    actor.send({ type: 'wizard.next', values: basics });
    expect(actor.getSnapshot().context.quote).toBe('checking');
    await waitFor(actor, (s) => s.matches({ price: 'settled' }));
    expect(quotes[0]).toMatchObject(basics);
    expect(actor.getSnapshot().context).toMatchObject({ quote: 'confirmed', serverPrice });
  });

  it('says the server price is unavailable when the quote fails', async () => {
    const { actor } = setup({ quote: { ok: false, transient: true, code: 'network' } });
    await waitFor(actor, (s) => s.matches('basics'));
    actor.send({ type: 'wizard.next', values: basics });
    await waitFor(actor, (s) => s.matches({ price: 'settled' }));
    expect(actor.getSnapshot().context).toMatchObject({ quote: 'unavailable', serverPrice: null });
  });

  it('prices offline without the server, and asks it when the network is back', async () => {
    const { actor, quotes } = setup({ online: false });
    await waitFor(actor, (s) => s.matches('basics'));
    actor.send({ type: 'wizard.next', values: basics });
    expect(actor.getSnapshot().matches({ price: 'offline' })).toBe(true);
    expect(quotes).toHaveLength(0);
    actor.send({ type: 'wizard.online', online: true });
    await waitFor(actor, (s) => s.matches({ price: 'settled' }));
    expect(quotes).toHaveLength(1);
  });

  it('prices the draft from the catalogue it is given, again after each change', async () => {
    const { actor } = setup({ online: false });
    await waitFor(actor, (s) => s.matches('basics'));
    expect(actor.getSnapshot().context.price).toBeNull();
    actor.send({ type: 'wizard.catalogue', catalogue });
    actor.send({ type: 'wizard.next', values: basics });
    expect(actor.getSnapshot().context.price).toEqual(price);
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'wizard.change', values: { ...location, pickup_location_id: 'loc-2' } });
    expect(actor.getSnapshot().context.price).toMatchObject({
      pickup_fee: 1500,
      dropoff_fee: 1500,
      total: 13000,
    });
  });

  it('does not pass the price step without a price', async () => {
    const { actor } = setup({ online: false });
    await waitFor(actor, (s) => s.matches('basics'));
    actor.send({ type: 'wizard.next', values: basics });
    actor.send({ type: 'wizard.next' });
    expect(step(actor)).toBe('price');
    // Settings not synced yet: the device cannot price the draft.
    actor.send({ type: 'wizard.catalogue', catalogue: { ...catalogue, settings: null } });
    actor.send({ type: 'wizard.next' });
    expect(step(actor)).toBe('price');
    actor.send({ type: 'wizard.catalogue', catalogue });
    actor.send({ type: 'wizard.next' });
    expect(step(actor)).toBe('location');
  });

  it('requires the licence, and flight documents when coming from abroad', async () => {
    const { actor } = setup({ online: false });
    await waitFor(actor, (s) => s.matches('basics'));
    actor.send({ type: 'wizard.next', values: basics });
    actor.send({ type: 'wizard.catalogue', catalogue });
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'wizard.next', values: { ...location, licence: null } });
    expect(step(actor)).toBe('location');
    actor.send({ type: 'wizard.next', values: { ...location, from_abroad: true } });
    expect(step(actor)).toBe('location');
    actor.send({ type: 'wizard.next', values: { ...location, dropoff_same: false } });
    expect(step(actor)).toBe('location');
    actor.send({ type: 'wizard.next', values: location });
    expect(step(actor)).toBe('services');
  });

  it('requires the guest contact only when signed out', async () => {
    const { actor } = setup({ online: false });
    await waitFor(actor, (s) => s.matches('basics'));
    actor.send({ type: 'wizard.next', values: basics });
    actor.send({ type: 'wizard.catalogue', catalogue });
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'wizard.next', values: location });
    actor.send({ type: 'wizard.next' });
    expect(step(actor)).toBe('services');
    actor.send({ type: 'wizard.session', isGuest: false });
    actor.send({ type: 'wizard.next' });
    expect(step(actor)).toBe('review');
  });

  it('goes back one step at a time, keeping what was typed', async () => {
    const { actor } = await toReview({ online: false });
    actor.send({ type: 'wizard.back', values: { accept_guarantee: true } });
    expect(step(actor)).toBe('services');
    expect(actor.getSnapshot().context.draft.accept_guarantee).toBe(true);
    actor.send({ type: 'wizard.back', values: { additional_requests: 'child seat please' } });
    expect(step(actor)).toBe('location');
    expect(actor.getSnapshot().context.draft.additional_requests).toBe('child seat please');
    actor.send({ type: 'wizard.back' });
    expect(step(actor)).toBe('price');
    actor.send({ type: 'wizard.back' });
    expect(step(actor)).toBe('basics');
  });

  it('jumps from the review back to a step to change it', async () => {
    const { actor } = await toReview({ online: false });
    actor.send({ type: 'wizard.goTo', step: 'location' });
    expect(step(actor)).toBe('location');
  });

  it('confirms only with the guarantee accepted, then submits and ends with the id', async () => {
    const { actor, submits } = await toReview();
    actor.send({ type: 'wizard.confirm' });
    expect(step(actor)).toBe('review');
    actor.send({ type: 'wizard.confirm', values: { accept_guarantee: true } });
    await waitFor(actor, (s) => s.status === 'done');
    expect(submits).toHaveLength(1);
    expect(submits[0]).toMatchObject({ isGuest: true, price, draft: { ...basics, ...contact } });
    expect(actor.getSnapshot().output).toEqual({ bookingId: 'b1' });
  });

  it('submits the server price when the server gave one', async () => {
    const serverPrice = { ...price, total: 11111, subtotal: 11111 };
    const { actor, submits } = await toReview({ quote: { ok: true, price: serverPrice } });
    await waitFor(actor, (s) => s.matches({ review: 'settled' }));
    actor.send({ type: 'wizard.confirm', values: { accept_guarantee: true } });
    await waitFor(actor, (s) => s.status === 'done');
    expect(submits[0]?.price.total).toBe(11111);
  });

  it('stays on the review with the error when storing fails', async () => {
    const { actor } = await toReview({
      online: false,
      submit: async () => {
        throw new Error('QuotaExceededError');
      },
    });
    actor.send({ type: 'wizard.confirm', values: { accept_guarantee: true } });
    await waitFor(actor, (s) => s.context.submitError !== null);
    expect(step(actor)).toBe('review');
    expect(actor.getSnapshot().context.submitError).toContain('QuotaExceededError');
  });
});
