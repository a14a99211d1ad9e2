import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

import type { Tone } from '@/domain/booking-outcomes';
import type { LocalBooking } from '@/domain/local-booking';

import type { CancelView } from '@/features/bookings/booking-lists';

/** A cancellation on its way to the server, or refused by it: a short label and what it means. */
export const cancelLabels: Record<CancelView['kind'], MessageDescriptor> = {
  cancel_queued: msg`Annulation en attente d’envoi`,
  cancel_refused: msg`Erreur lors de l’annulation de la réservation`,
};

export const cancelHints: Record<CancelView['kind'], MessageDescriptor> = {
  cancel_queued: msg`L’annulation part dès que le réseau le permet.`,
  cancel_refused: msg`L’agence n’a pas pu enregistrer l’annulation.`,
};

export const cancelTones: Record<CancelView['kind'], Tone> = {
  cancel_queued: 'warning',
  cancel_refused: 'danger',
};

export const driverLabels: Record<LocalBooking['driver_option'], MessageDescriptor> = {
  self: msg`Je conduis moi-même`,
  provided: msg`Avec chauffeur`,
};

export const paymentStatusLabels: Record<LocalBooking['payment_status'], MessageDescriptor> = {
  unpaid: msg`À payer en espèces à la prise en charge`,
  paid: msg`Payée`,
  refunded: msg`Remboursée`,
};

/**
 * A queued cancellation the server refused, in one plain sentence (shown once on the card, and
 * toasted once if it happens while the page is open): what did not happen, why, what to do.
 */
export const cancelRefusedMessage = msg`Votre annulation n’a pas été faite : l’agence avait déjà changé cette réservation (par exemple, la location a commencé). Pour l’annuler malgré tout, contactez l’agence.`;
export const cancelRefusedWithReason = (reason: string) =>
  msg`Votre annulation n’a pas été faite : ${reason} Pour l’annuler malgré tout, contactez l’agence.`;
