import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';

import {
  outcomeOf,
  sayOutcome,
  stageOf,
  stageOutcome,
  stages,
  type Audience,
  type Outcome,
  type Stage,
} from '@/domain/booking-outcomes';
import { bookingStatuses } from '@/domain/lifecycle';
import type { BookingSyncState, LocalBooking, LocalStatus } from '@/domain/local-booking';

i18n.loadAndActivate({ locale: 'fr', messages: {} });
const audiences: Audience[] = ['guest', 'customer', 'staff'];
const syncStates: BookingSyncState[] = [
  'queued',
  'sending',
  'awaiting',
  'confirmed',
  'needs_attention',
];
const statuses: Array<LocalBooking['status']> = [
  'queued',
  'sync_failed',
  ...bookingStatuses,
] satisfies Array<LocalStatus | (typeof bookingStatuses)[number]>;
const tones = ['neutral', 'info', 'success', 'warning', 'danger'];

const NOW = Date.parse('2026-11-25T10:00:00Z');
const later = '2026-11-25T10:45:00Z';
const earlier = '2026-11-25T09:59:00Z';

const said = (stage: Stage, audience: Audience) => {
  const outcome = stageOutcome(stage, audience);
  return {
    label: i18n._(outcome.label),
    tone: outcome.tone,
    hint: outcome.hint && i18n._(outcome.hint),
  };
};

/** Which row of the table a text comes from (several rows may share one, e.g. "accepted"). */
function rowsSaying(field: 'hint' | 'heading', text: string, audience: Audience): Stage[] {
  return (Object.keys(stages) as Stage[]).filter((s) => {
    const value = stageOutcome(s, audience)[field];
    return value !== null && i18n._(value) === text;
  });
}

/**
 * The stage every (status, sync state) pair must show, for a customer's booking, a guest's
 * confirmed one, and a guest's unconfirmed one before and after its deadline.
 */
function expectedStage(
  status: LocalBooking['status'],
  sync: BookingSyncState,
  kind: 'customer' | 'confirmed_guest' | 'unconfirmed' | 'lapsed',
): Stage {
  if (sync === 'needs_attention' || status === 'sync_failed') return 'needs_attention';
  if (status === 'queued') return sync === 'sending' ? 'sending' : 'queued';
  if (status === 'pending' && kind === 'unconfirmed') return 'awaiting_confirmation';
  if (status === 'pending' && kind === 'lapsed') return 'expired';
  return status;
}

describe('the outcome table', () => {
  it('has a row for every status of the lifecycle and every stage on the way there', () => {
    expect(Object.keys(stages)).toEqual([
      'queued',
      'sending',
      'needs_attention',
      'awaiting_confirmation',
      ...bookingStatuses,
    ]);
    expect(bookingStatuses).toContain('expired');
  });

  const kinds = ['customer', 'confirmed_guest', 'unconfirmed', 'lapsed'] as const;
  for (const status of statuses) {
    for (const sync of syncStates) {
      it(`status ${status} × sync ${sync}: one stage, and every audience reads it whole`, () => {
        for (const kind of kinds) {
          const booking = {
            status,
            sync_state: sync,
            user_id: kind === 'customer' ? 'user-1' : null,
            confirm_by: kind === 'customer' ? null : kind === 'lapsed' ? earlier : later,
            contact_confirmed_at: kind === 'confirmed_guest' ? earlier : null,
          };
          const stage = stageOf(booking, NOW);
          expect(stage, kind).toBe(expectedStage(status, sync, kind));
          for (const audience of audiences) {
            const outcome: Outcome = outcomeOf(booking, audience, NOW);
            const where = `${status}/${sync}/${kind} for ${audience}`;
            expect(outcome.stage).toBe(stage);
            expect(i18n._(outcome.label), where).not.toBe('');
            expect(i18n._(outcome.heading), where).not.toBe('');
            expect(tones, where).toContain(outcome.tone);
            // The hint and the heading belong to the badge's row: never another stage's words.
            if (outcome.hint) {
              expect(rowsSaying('hint', i18n._(outcome.hint), audience), where).toContain(stage);
            }
            expect(rowsSaying('heading', i18n._(outcome.heading), audience), where).toContain(
              stage,
            );
          }
        }
      });
    }
  }

  it('never tells a refused, rejected, cancelled or expired booking that it is recorded or accepted', () => {
    const positive = ['Réservation enregistrée', 'Réservation acceptée', 'Acceptée par l’agence.'];
    for (const stage of ['needs_attention', 'rejected', 'cancelled', 'expired'] as Stage[]) {
      for (const audience of audiences) {
        const outcome = stageOutcome(stage, audience);
        const texts = [outcome.heading, outcome.hint, outcome.next.text]
          .filter((t) => t !== null)
          .map((t) => i18n._(t));
        for (const text of positive) expect(texts, `${stage} for ${audience}`).not.toContain(text);
        expect(['danger', 'neutral']).toContain(outcome.tone);
      }
    }
    expect(i18n._(stageOutcome('needs_attention', 'guest').heading)).toBe(
      'Réservation refusée par le serveur',
    );
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
    expect(said('rejected', 'guest')).toEqual({
      label: 'Refusée',
      tone: 'danger',
      hint: 'L’agence a refusé cette réservation.',
    });
  });

  it('gives each audience its next step', () => {
    const next = (stage: Stage, audience: Audience) => stageOutcome(stage, audience).next.kind;
    expect(next('awaiting_confirmation', 'guest')).toBe('confirm_contact');
    expect(next('awaiting_confirmation', 'staff')).toBe('wait_contact');
    expect(next('pending', 'staff')).toBe('decide');
    expect(next('pending', 'guest')).toBe('wait_agency');
    expect(next('needs_attention', 'customer')).toBe('fix_booking');
    expect(next('completed', 'customer')).toBe('review');
    // A guest cannot review: reviews belong to accounts.
    expect(next('completed', 'guest')).toBe('none');
    expect(next('expired', 'guest')).toBe('book_again');
  });

  it('names the confirmation deadline in the reader’s time (Algiers)', () => {
    const hint = stageOutcome('awaiting_confirmation', 'guest').hint!;
    const text = sayOutcome(i18n, hint, { confirm_by: '2026-11-25T10:45:00Z' });
    expect(text).toContain('11:45');
    expect(text).not.toContain('{deadline}');
  });

  it('never promises an unconfirmed request holds the car, and says why an expired one ended', () => {
    const waiting = i18n._(stageOutcome('awaiting_confirmation', 'guest').hint!);
    expect(waiting).toContain('si personne ne l’a réservée avant vous');
    expect(waiting).not.toContain('libérée');
    const expired = { status: 'expired', user_id: null, confirm_by: earlier } as const;
    expect(
      i18n._(outcomeOf({ ...expired, status_reason: 'contact_not_confirmed' }, 'guest').hint!),
    ).toBe('L’adresse e-mail n’a pas été confirmée à temps.');
    const taken = outcomeOf({ ...expired, status_reason: 'car_unavailable' }, 'guest', NOW);
    expect(taken.stage).toBe('expired');
    expect(i18n._(taken.hint!)).toBe(
      'Une réservation confirmée a pris cette voiture avant votre confirmation.',
    );
    expect(i18n._(outcomeOf({ ...expired, status_reason: 'car_unavailable' }, 'staff').hint!)).toBe(
      'Une réservation confirmée a pris la voiture avant la confirmation du client.',
    );
  });
});
