import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

import type { BookingEvent } from '@/features/staff/staff-api';
import type { StaffStatusFilter } from '@/features/staff/staff-search';
import type { StaffActionKind } from '@/features/staff/transitions';

/** The board's lists (tabs), by status. */
export const statusLabels: Record<StaffStatusFilter, MessageDescriptor> = {
  pending: msg`À traiter`,
  reserved: msg`Réservées`,
  in_progress: msg`En location`,
  completed: msg`Terminées`,
  cancelled: msg`Annulées`,
  rejected: msg`Refusées`,
  expired: msg`Expirées`,
  all: msg`Toutes`,
};

type ActionCopy = {
  button: MessageDescriptor;
  title: MessageDescriptor;
  body: MessageDescriptor;
  done: MessageDescriptor;
};

/** Each move's button, confirmation and success message; `{reference}` is the booking's. */
export const actionCopy: Record<StaffActionKind, ActionCopy> = {
  accept: {
    button: msg`Accepter`,
    title: msg`Accepter la réservation {reference} ?`,
    body: msg`La voiture est réservée pour ces dates et le client en est informé.`,
    done: msg`Réservation {reference} acceptée`,
  },
  reject: {
    button: msg`Refuser`,
    title: msg`Refuser la réservation {reference} ?`,
    body: msg`Le client voit le motif. Une réservation refusée ne peut plus être acceptée.`,
    done: msg`Réservation {reference} refusée`,
  },
  start: {
    button: msg`Démarrer la location`,
    title: msg`Démarrer la location {reference} ?`,
    body: msg`À faire à la remise des clés, après le contrôle de la pièce d’identité, du permis et de la caution.`,
    done: msg`Location {reference} démarrée`,
  },
  complete: {
    button: msg`Terminer la location`,
    title: msg`Terminer la location {reference} ?`,
    body: msg`À faire au retour de la voiture. Le client pourra ensuite laisser un avis.`,
    done: msg`Location {reference} terminée`,
  },
  cancel: {
    button: msg`Annuler la réservation`,
    title: msg`Annuler la réservation {reference} ?`,
    body: msg`Le client voit le motif. L’annulation est définitive.`,
    done: msg`Réservation {reference} annulée`,
  },
};

export const actorLabels: Record<BookingEvent['actor'], MessageDescriptor> = {
  customer: msg`le client`,
  guest: msg`le client (sans compte)`,
  staff: msg`l’agence`,
  system: msg`le système`,
};
