import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';

import {
  outcomeOf,
  stageOf,
  stageOutcome,
  stages,
  type Audience,
  type Stage,
} from '@/domain/booking-outcomes';
import { bookingStatuses } from '@/domain/lifecycle';
import type { LocalBooking } from '@/domain/local-booking';

i18n.loadAndActivate({ locale: 'fr', messages: {} });
const audiences: Audience[] = ['guest', 'customer', 'staff'];
const said = (stage: Stage, audience: Audience) => {
  const outcome = stageOutcome(stage, audience);
  return {
    label: i18n._(outcome.label),
    tone: outcome.tone,
    hint: outcome.hint && i18n._(outcome.hint),
  };
};

describe('the outcome table', () => {
  it('has a row for every status of the lifecycle and every stage on the way there', () => {
    expect(Object.keys(stages)).toEqual([
      'queued',
      'sending',
      'needs_attention',
      ...bookingStatuses,
      'expired',
    ]);
  });

  it('reads an expired guest booking (the server lapses unconfirmed ones) as expired', () => {
    expect(outcomeOf({ status: 'expired', sync_state: 'confirmed' }, 'guest')).toMatchObject({
      stage: 'expired',
      tone: 'neutral',
    });
  });

  it('gives every audience a label and a tone for every stage', () => {
    for (const stage of Object.keys(stages) as Stage[]) {
      for (const audience of audiences) {
        const { label, tone } = said(stage, audience);
        expect(label, `${stage} for ${audience}`).not.toBe('');
        expect(['neutral', 'info', 'success', 'warning', 'danger']).toContain(tone);
      }
    }
  });

  it('words a status once per audience: guests read what customers read', () => {
    expect(said('pending', 'customer')).toEqual({
      label: 'En attente de validation',
      tone: 'info',
      hint: 'Reçue par l’agence, qui va l’accepter ou la refuser.',
    });
    expect(said('pending', 'guest')).toEqual(said('pending', 'customer'));
    expect(said('pending', 'staff')).toEqual({ label: 'En attente', tone: 'warning', hint: null });
    expect(said('in_progress', 'staff').label).toBe('En location');
    expect(said('reserved', 'customer').hint).toBe('Acceptée par l’agence.');
    expect(said('cancelled', 'customer')).toEqual({
      label: 'Annulée',
      tone: 'neutral',
      hint: null,
    });
  });
});

describe('stageOf', () => {
  const booking = (status: LocalBooking['status'], sync: LocalBooking['sync_state']) => ({
    status,
    sync_state: sync,
  });

  it('reads the journey first, then the server status', () => {
    expect(stageOf(booking('queued', 'queued'))).toBe('queued');
    expect(stageOf(booking('queued', 'sending'))).toBe('sending');
    expect(stageOf(booking('sync_failed', 'needs_attention'))).toBe('needs_attention');
    expect(stageOf(booking('pending', 'awaiting'))).toBe('pending');
    expect(stageOf(booking('reserved', 'confirmed'))).toBe('reserved');
    // Cancelled on this device while the cancellation waits: the customer sees it cancelled.
    expect(stageOf(booking('cancelled', 'awaiting'))).toBe('cancelled');
  });

  it('gives a booking the outcome of its stage', () => {
    expect(outcomeOf(booking('queued', 'sending'), 'guest')).toEqual(
      stageOutcome('sending', 'guest'),
    );
  });
});
