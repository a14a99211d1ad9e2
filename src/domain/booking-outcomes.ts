/**
 * What a booking's state means to the person looking at it: one table, one wording per stage and
 * audience, read by every screen that shows a booking (the success page, My bookings, the guest
 * view, the staff board). A stage is a status on the server, or where a booking on this device
 * stands on its way there; adding a status is adding one row. Badge, hint, page heading and next
 * action come from the same row, so a hint can never contradict its badge.
 *
 * Wording is Lingui message descriptors; `sayOutcome` renders them (a hint may name the deadline
 * of a guest's confirmation, `{deadline}`).
 */
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

import { formatDateTime } from '@/domain/dates';
import type { LocalBooking } from '@/domain/local-booking';
import type { Locale } from '@/domain/locale';
import type { BookingStatus } from '@/domain/rows';

/** Who reads it: a visitor without an account, a signed-in customer, the agency. */
export type Audience = 'guest' | 'customer' | 'staff';

/** The colour a badge takes (src/ui/badge.tsx). */
export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

/**
 * Where a booking stands: still on this device (`queued`), on its way (`sending`), refused by the
 * server for good (`needs_attention`), on the server but holding no car until the guest confirms
 * the e-mail address (`awaiting_confirmation`), or its status on the server.
 */
export type Stage =
  'queued' | 'sending' | 'needs_attention' | 'awaiting_confirmation' | BookingStatus;

/**
 * What the reader can do next: wait for the network or the server, fix a refused booking,
 * confirm the e-mail with the mailed code, wait for the agency, come for the car, review it,
 * book again — or, for staff, decide, wait for the guest, hand over or take back the car.
 */
export type NextActionKind =
  | 'wait_network'
  | 'wait_server'
  | 'fix_booking'
  | 'confirm_contact'
  | 'wait_agency'
  | 'pick_up'
  | 'return_car'
  | 'review'
  | 'book_again'
  | 'decide'
  | 'wait_contact'
  | 'hand_over'
  | 'take_back'
  | 'none';

export type NextAction = { kind: NextActionKind; text: MessageDescriptor | null };

/** One value for every audience, or one per audience (guests read the customer's unless said). */
export type PerAudience<T> = T | { customer: T; staff: T; guest?: T };

export type StageRow = {
  /** The badge: the booking's state in a word or two. */
  label: PerAudience<MessageDescriptor>;
  tone: PerAudience<Tone>;
  /** One sentence on what it means for the reader; null when the badge says it all. */
  hint: PerAudience<MessageDescriptor | null>;
  /** The heading of the booking's page (the confirmation page after booking). */
  heading: PerAudience<MessageDescriptor>;
  next: PerAudience<NextAction>;
};

const accepted = msg`Acceptée par l’agence.`;
const none: NextAction = { kind: 'none', text: null };
const bookAgain: NextAction = {
  kind: 'book_again',
  text: msg`Vous pouvez réserver une autre voiture ou d’autres dates.`,
};

/** The table. Its order is the lifecycle's: what the device knows first, then the server's. */
export const stages: Record<Stage, StageRow> = {
  queued: {
    label: msg`En attente d’envoi`,
    tone: 'warning',
    hint: msg`Enregistrée sur cet appareil : elle part dès que le réseau le permet, même si vous fermez l’application.`,
    heading: msg`Réservation enregistrée sur cet appareil`,
    next: {
      kind: 'wait_network',
      text: msg`Rien à faire : gardez la référence, l’envoi se fait tout seul.`,
    },
  },
  sending: {
    label: msg`Envoi en cours`,
    tone: 'warning',
    hint: msg`Envoi au serveur…`,
    heading: msg`Envoi de votre réservation`,
    next: { kind: 'wait_server', text: null },
  },
  needs_attention: {
    label: msg`Action requise`,
    tone: 'danger',
    hint: msg`Le serveur a refusé cette réservation.`,
    heading: msg`Réservation refusée par le serveur`,
    next: {
      kind: 'fix_booking',
      text: msg`Corrigez-la ci-dessous (autre voiture, autres dates) ou abandonnez-la.`,
    },
  },
  awaiting_confirmation: {
    label: { customer: msg`E-mail à confirmer`, staff: msg`E-mail non confirmé` },
    tone: 'warning',
    hint: {
      customer: msg`Confirmez votre adresse e-mail avec le code reçu avant {deadline} : la voiture vous est réservée dès votre confirmation, si personne ne l’a réservée avant vous.`,
      staff: msg`Le client n’a pas encore confirmé son e-mail : la demande ne bloque pas la voiture, et sans confirmation avant {deadline}, elle expire.`,
    },
    heading: { customer: msg`Confirmez votre adresse e-mail`, staff: msg`E-mail non confirmé` },
    next: {
      customer: {
        kind: 'confirm_contact',
        text: msg`Saisissez le code reçu par e-mail, ou ouvrez le lien du message.`,
      },
      staff: {
        kind: 'wait_contact',
        text: msg`Elle ne peut pas être acceptée avant la confirmation de l’e-mail.`,
      },
    },
  },
  pending: {
    label: { customer: msg`En attente de validation`, staff: msg`En attente` },
    tone: { customer: 'info', staff: 'warning' },
    hint: { customer: msg`Reçue par l’agence, qui va l’accepter ou la refuser.`, staff: null },
    heading: { customer: msg`Réservation enregistrée`, staff: msg`En attente` },
    next: {
      customer: {
        kind: 'wait_agency',
        text: msg`L’agence vous répond par e-mail ; vous pouvez aussi la suivre ici.`,
      },
      staff: { kind: 'decide', text: msg`Acceptez-la ou refusez-la avec un motif.` },
    },
  },
  reserved: {
    label: msg`Réservée`,
    tone: { customer: 'success', staff: 'info' },
    hint: { customer: accepted, staff: null },
    heading: { customer: msg`Réservation acceptée`, staff: msg`Réservée` },
    next: {
      customer: {
        kind: 'pick_up',
        text: msg`Présentez-vous à l’heure prévue avec votre pièce d’identité, votre permis et la caution.`,
      },
      staff: { kind: 'hand_over', text: null },
    },
  },
  in_progress: {
    label: { customer: msg`Location en cours`, staff: msg`En location` },
    tone: 'success',
    hint: { customer: accepted, staff: null },
    heading: { customer: msg`Location en cours`, staff: msg`En location` },
    next: {
      customer: { kind: 'return_car', text: msg`Rendez la voiture au lieu et à l’heure prévus.` },
      staff: { kind: 'take_back', text: null },
    },
  },
  completed: {
    label: msg`Terminée`,
    tone: 'neutral',
    hint: null,
    heading: msg`Location terminée`,
    next: {
      customer: { kind: 'review', text: msg`Vous pouvez laisser un avis sur la voiture.` },
      guest: none,
      staff: none,
    },
  },
  cancelled: {
    label: msg`Annulée`,
    tone: 'neutral',
    hint: null,
    heading: msg`Réservation annulée`,
    next: { customer: bookAgain, staff: none },
  },
  rejected: {
    label: msg`Refusée`,
    tone: 'danger',
    hint: { customer: msg`L’agence a refusé cette réservation.`, staff: null },
    heading: msg`Réservation refusée par l’agence`,
    next: { customer: bookAgain, staff: none },
  },
  expired: {
    label: msg`Expirée`,
    tone: 'neutral',
    hint: {
      customer: msg`L’adresse e-mail n’a pas été confirmée à temps.`,
      staff: msg`E-mail non confirmé à temps.`,
    },
    heading: msg`Réservation expirée`,
    next: { customer: bookAgain, staff: none },
  },
};

/**
 * An expired request says why when it is not the usual one: a confirmed booking took the car
 * while this one waited for its code (status_reason `car_unavailable`).
 */
const takenMeanwhile: PerAudience<MessageDescriptor> = {
  customer: msg`Une réservation confirmée a pris cette voiture avant votre confirmation.`,
  staff: msg`Une réservation confirmée a pris la voiture avant la confirmation du client.`,
};

/** What `stageOf` reads of a booking. */
export type StageInput = Pick<LocalBooking, 'status'> &
  Partial<
    Pick<
      LocalBooking,
      'sync_state' | 'user_id' | 'confirm_by' | 'contact_confirmed_at' | 'status_reason'
    >
  >;

/** A guest booking on the server whose e-mail address is not confirmed yet. */
export function awaitsConfirmation(booking: StageInput): boolean {
  return (
    booking.status === 'pending' &&
    !booking.user_id &&
    !!booking.confirm_by &&
    !booking.contact_confirmed_at
  );
}

/**
 * The stage of a booking as this device knows it. A refusal on this device comes first (it needs
 * the reader), then a booking not on the server yet, then the server's status. An unconfirmed
 * guest booking past its deadline is shown expired: the server frees its car at that instant,
 * before any job writes the status (docs/decisions.md); `now` is this device's clock.
 */
export function stageOf(booking: StageInput, now: number = Date.now()): Stage {
  if (booking.sync_state === 'needs_attention' || booking.status === 'sync_failed') {
    return 'needs_attention';
  }
  if (booking.status === 'queued') return booking.sync_state === 'sending' ? 'sending' : 'queued';
  if (awaitsConfirmation(booking)) {
    return Date.parse(booking.confirm_by!) <= now ? 'expired' : 'awaiting_confirmation';
  }
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
  heading: MessageDescriptor;
  next: NextAction;
};

/** A stage as `audience` reads it. */
export function stageOutcome(stage: Stage, audience: Audience): Outcome {
  const row = stages[stage];
  return {
    stage,
    label: forAudience(row.label, audience),
    tone: forAudience(row.tone, audience),
    hint: forAudience(row.hint, audience),
    heading: forAudience(row.heading, audience),
    next: forAudience(row.next, audience),
  };
}

/** A booking as `audience` reads it. */
export function outcomeOf(booking: StageInput, audience: Audience, now?: number): Outcome {
  const outcome = stageOutcome(stageOf(booking, now), audience);
  if (outcome.stage === 'expired' && booking.status_reason === 'car_unavailable') {
    return { ...outcome, hint: forAudience(takenMeanwhile, audience) };
  }
  return outcome;
}

/** One of an outcome's texts in the reader's language, with the booking's deadline filled in. */
export function sayOutcome(
  i18n: I18n,
  text: MessageDescriptor,
  booking: Partial<Pick<LocalBooking, 'confirm_by'>>,
): string {
  const deadline = booking.confirm_by
    ? formatDateTime(booking.confirm_by, (i18n.locale || 'fr') as Locale)
    : '';
  const withDeadline: MessageDescriptor = { ...text, values: { ...text.values, deadline } };
  return i18n._(withDeadline);
}
