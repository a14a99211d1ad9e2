/**
 * What a booking's state means to the person looking at it: one table, one wording per stage and
 * audience, read by every screen that shows a booking (the success page, My bookings, the staff
 * board). A stage is a status on the server, or where a booking on this device stands on its way
 * there; adding a status is adding one row.
 *
 * Wording is Lingui message descriptors (`i18n._(outcome.label)` renders them).
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

import type { LocalBooking } from '@/domain/local-booking';
import type { BookingStatus } from '@/domain/rows';

/** Who reads it: a visitor without an account, a signed-in customer, the agency. */
export type Audience = 'guest' | 'customer' | 'staff';

/** The colour a badge takes (src/ui/badge.tsx). */
export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

/**
 * Where a booking stands: still on this device (`queued`), on its way (`sending`), refused by the
 * server for good (`needs_attention`), or its status on the server.
 */
export type Stage = 'queued' | 'sending' | 'needs_attention' | BookingStatus;

/** One value for every audience, or one per audience (guests read the customer's unless said). */
export type PerAudience<T> = T | { customer: T; staff: T; guest?: T };

export type StageRow = {
  /** The badge: the booking's state in a word or two. */
  label: PerAudience<MessageDescriptor>;
  tone: PerAudience<Tone>;
  /** One sentence on what it means for the reader; null when the badge says it all. */
  hint: PerAudience<MessageDescriptor | null>;
};

const accepted = msg`Acceptée par l’agence.`;

/** The table. Its order is the lifecycle's: what the device knows first, then the server's. */
export const stages: Record<Stage, StageRow> = {
  queued: {
    label: msg`En attente d’envoi`,
    tone: 'warning',
    hint: msg`Enregistrée sur cet appareil : elle part dès que le réseau le permet, même si vous fermez l’application.`,
  },
  sending: {
    label: msg`Envoi en cours`,
    tone: 'warning',
    hint: msg`Envoi au serveur…`,
  },
  needs_attention: {
    label: msg`Action requise`,
    tone: 'danger',
    hint: msg`Le serveur a refusé cette réservation.`,
  },
  pending: {
    label: { customer: msg`En attente de validation`, staff: msg`En attente` },
    tone: { customer: 'info', staff: 'warning' },
    hint: { customer: msg`Reçue par l’agence, qui va l’accepter ou la refuser.`, staff: null },
  },
  reserved: {
    label: msg`Réservée`,
    tone: { customer: 'success', staff: 'info' },
    hint: { customer: accepted, staff: null },
  },
  in_progress: {
    label: { customer: msg`Location en cours`, staff: msg`En location` },
    tone: 'success',
    hint: { customer: accepted, staff: null },
  },
  completed: { label: msg`Terminée`, tone: 'neutral', hint: null },
  cancelled: { label: msg`Annulée`, tone: 'neutral', hint: null },
  rejected: { label: msg`Refusée`, tone: 'danger', hint: null },
  expired: {
    label: msg`Expirée`,
    tone: 'neutral',
    hint: {
      customer: msg`Le contact n’a pas été confirmé à temps : la voiture n’est plus retenue.`,
      staff: msg`Contact non confirmé à temps.`,
    },
  },
};

/** The stage of a booking as this device knows it. */
export function stageOf(booking: Pick<LocalBooking, 'status' | 'sync_state'>): Stage {
  if (booking.sync_state === 'needs_attention' || booking.status === 'sync_failed') {
    return 'needs_attention';
  }
  if (booking.sync_state === 'sending') return 'sending';
  if (booking.status === 'queued' || booking.sync_state === 'queued') return 'queued';
  return booking.status;
}

function forAudience<T>(value: PerAudience<T>, audience: Audience): T {
  if (typeof value === 'object' && value !== null && 'customer' in value && 'staff' in value) {
    const split = value as { customer: T; staff: T; guest?: T };
    if (audience === 'guest') return split.guest ?? split.customer;
    return split[audience];
  }
  return value as T;
}

export type Outcome = {
  stage: Stage;
  label: MessageDescriptor;
  tone: Tone;
  hint: MessageDescriptor | null;
};

/** A stage as `audience` reads it. */
export function stageOutcome(stage: Stage, audience: Audience): Outcome {
  const row = stages[stage];
  return {
    stage,
    label: forAudience(row.label, audience),
    tone: forAudience(row.tone, audience),
    hint: forAudience(row.hint, audience),
  };
}

/** A booking as `audience` reads it. */
export function outcomeOf(
  booking: Pick<LocalBooking, 'status' | 'sync_state'>,
  audience: Audience,
): Outcome {
  return stageOutcome(stageOf(booking), audience);
}
