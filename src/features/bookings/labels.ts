import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

import type { LocalBooking } from '@/domain/local-booking';
import type { BadgeTone } from '@/ui/badge';

import type { SyncView } from '@/features/bookings/booking-lists';

/** The booking's status, in the customer's words (SPEC §4), with the badge colour. */
export const statusLabels: Record<LocalBooking['status'], MessageDescriptor> = {
  queued: msg`Pas encore envoyée`,
  sync_failed: msg`À corriger`,
  pending: msg`En attente de validation`,
  reserved: msg`Réservée`,
  in_progress: msg`Location en cours`,
  completed: msg`Terminée`,
  cancelled: msg`Annulée`,
  rejected: msg`Refusée`,
};

export const statusTones: Record<LocalBooking['status'], BadgeTone> = {
  queued: 'warning',
  sync_failed: 'danger',
  pending: 'info',
  reserved: 'success',
  in_progress: 'success',
  completed: 'neutral',
  cancelled: 'neutral',
  rejected: 'danger',
};

/** The journey to the server: a short label and what it means for the customer. */
export const syncLabels: Record<SyncView['kind'], MessageDescriptor> = {
  queued: msg`En attente d’envoi`,
  sending: msg`Envoi en cours`,
  awaiting: msg`En attente de confirmation`,
  confirmed: msg`Confirmée`,
  needs_attention: msg`Action requise`,
  cancel_queued: msg`Annulation en attente d’envoi`,
  cancel_refused: msg`Erreur lors de l’annulation de la réservation`,
};

export const syncHints: Record<SyncView['kind'], MessageDescriptor> = {
  queued: msg`Enregistrée sur cet appareil : elle part dès que le réseau le permet, même si vous fermez l’application.`,
  sending: msg`Envoi au serveur…`,
  awaiting: msg`Reçue par l’agence, qui va l’accepter ou la refuser.`,
  confirmed: msg`Acceptée par l’agence.`,
  needs_attention: msg`Le serveur a refusé cette réservation.`,
  cancel_queued: msg`L’annulation part dès que le réseau le permet.`,
  cancel_refused: msg`L’agence n’a pas pu enregistrer l’annulation.`,
};

export const syncTones: Record<SyncView['kind'], BadgeTone> = {
  queued: 'warning',
  sending: 'warning',
  awaiting: 'info',
  confirmed: 'success',
  needs_attention: 'danger',
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
