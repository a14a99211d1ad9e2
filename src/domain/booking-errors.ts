import type { MessageDescriptor } from '@lingui/core';
import { msg, ph } from '@lingui/core/macro';

import { LIMITS } from '@/domain/limits';

/**
 * The server's stable booking error codes (docs/decisions.md) and the outbox's own failure codes,
 * as messages in the user's language: `i18n._(bookingErrorMessage(code))`. Used by the booking
 * wizard, the sync status, My bookings (cancel, review) and the guest lookup.
 */
const messages: Record<string, MessageDescriptor> = {
  invalid_payload: msg`La réservation est incomplète ou mal formée.`,
  invalid_reference: msg`La référence de réservation n’est pas valide.`,
  reference_taken: msg`Cette référence est déjà utilisée. Réessayez : une nouvelle référence sera créée.`,
  car_not_found: msg`Cette voiture n’est plus proposée.`,
  car_unavailable: msg`Cette voiture a été réservée par quelqu’un d’autre pour ces dates.`,
  invalid_dates: msg`Les dates ne sont pas valides : le retour doit suivre la prise en charge.`,
  dates_in_past: msg`La date de prise en charge est passée.`,
  rental_too_long: msg`Une location dure au plus ${ph({ days: LIMITS.rentalDays })} jours.`,
  location_not_found: msg`Ce lieu de prise en charge ou de retour n’est plus proposé.`,
  invalid_driver_option: msg`L’option chauffeur n’est pas valide.`,
  licence_required: msg`Le permis de conduire est obligatoire.`,
  flight_document_required: msg`Les documents de vol sont obligatoires pour un voyageur venant de l’étranger.`,
  guest_contact_required: msg`Votre nom, votre téléphone et votre e-mail sont obligatoires sans compte.`,
  invalid_email: msg`Veuillez saisir une adresse e-mail valide`,
  invalid_phone: msg`Veuillez saisir un numéro valide avec l’indicatif du pays (par exemple +33612345678)`,
  additional_requests_too_long: msg`Les demandes supplémentaires font au plus ${ph({ max: LIMITS.text })} caractères.`,
  unknown_extra: msg`Un service supplémentaire choisi n’est plus proposé.`,
  unknown_insurance: msg`Une assurance choisie n’est plus proposée.`,
  not_found: msg`Réservation introuvable.`,
  not_allowed: msg`Vous n’avez pas le droit de faire cela.`,
  invalid_status_transition: msg`Cette réservation ne peut plus changer d’état ainsi.`,
  reason_required: msg`Un motif est obligatoire.`,
  review_not_allowed: msg`Vous pourrez laisser un avis une fois la location terminée.`,
  already_reviewed: msg`Vous avez déjà laissé un avis pour cette réservation.`,
  invalid_rating: msg`La note va de 1 à 5 étoiles.`,
  comment_too_long: msg`Le commentaire est trop long.`,
  rate_limited: msg`Trop de tentatives. Patientez une minute avant de réessayer.`,
  method_not_allowed: msg`Cette demande doit être envoyée autrement : mettez l’application à jour.`,
  invalid_address: msg`L’adresse ne peut contenir ni retour à la ligne ni caractère invisible.`,
  invalid_age: msg`Âge invalide`,
  invalid_name: msg`Le nom ne peut contenir ni retour à la ligne ni caractère de contrôle.`,
  booking_too_far_ahead: msg`La prise en charge est trop loin dans le temps : l’agence prend les réservations jusqu’à un an à l’avance.`,
  too_many_pending_for_contact: msg`Cet e-mail a déjà plusieurs réservations en attente. Celle-ci partira dès que l’agence aura répondu à l’une d’elles.`,
  too_many_pending_for_account: msg`Votre compte a déjà plusieurs réservations en attente. Celle-ci partira dès que l’agence aura répondu à l’une d’elles.`,
  too_many_pending_for_domain: msg`Plusieurs réservations de ce domaine d’e-mail attendent déjà la réponse de l’agence. Utilisez une adresse personnelle, ou attendez sa réponse.`,
  too_many_pending_from_address: msg`Ce réseau a déjà beaucoup de réservations en attente de l’agence. Celle-ci partira dès que l’agence aura répondu à certaines.`,
  booking_rate_limited: msg`Trop de réservations en peu de temps. Celle-ci partira automatiquement un peu plus tard.`,
  idempotency_key_reused: msg`Cette réservation a déjà été envoyée avec d’autres détails. Abandonnez-la, puis réservez à nouveau.`,
  contact_not_confirmed: msg`L’adresse e-mail du client n’est pas encore confirmée.`,
  booking_expired: msg`L’adresse e-mail n’a pas été confirmée à temps : la réservation a expiré.`,
  invalid_confirmation_code: msg`Ce code ne correspond pas. Vérifiez le dernier e-mail reçu.`,
  confirmation_attempts_exceeded: msg`Trop de codes erronés : demandez un nouveau code.`,
  resend_limited: msg`Patientez une minute avant de demander un nouveau code.`,
  mail_rate_limited: msg`Le nouveau code n’a pas pu être envoyé : trop d’e-mails de code envoyés à cette adresse. Utilisez le dernier code reçu, ou contactez l’agence.`,
  invalid_extension: msg`Le délai se prolonge de 15 minutes à 24 heures.`,
  already_confirmed: msg`Cette adresse e-mail est déjà confirmée.`,
  files_not_checked: msg`Les documents de cette réservation sont en cours de vérification. Réessayez dans une minute.`,
  file_rejected: msg`Un document de cette réservation a été refusé : ce n’est pas un PDF, JPEG, PNG ou WebP valide. La réservation ne peut pas être acceptée.`,
  file_too_large: msg`fichier trop volumineux`,
  unsupported_file_type: msg`type de fichier non pris en charge`,
  file_missing: msg`Le fichier joint n’est plus sur cet appareil. Choisissez-le à nouveau.`,
  booking_finished: msg`Cette réservation a reçu sa réponse finale : il n’y a plus rien à notifier.`,
  invalid_push_endpoint: msg`Ce navigateur a donné une adresse de notification que l’agence ne peut pas utiliser.`,
  // Blocked periods (staff_block_car, docs/fleet.md).
  block_collides: msg`Une réservation ou un autre blocage occupe déjà la voiture sur cette période.`,
  block_in_past: msg`La période est déjà passée.`,
  block_too_long: msg`Un blocage dure au plus 366 jours.`,
  invalid_period: msg`Le dernier jour doit être le premier ou après.`,
  reason_too_long: msg`Le motif fait au plus 300 caractères.`,
  invalid_text: msg`Le motif contient des caractères invisibles.`,
  // Pickup and return records (staff_record_handover, docs/handovers.md).
  handover_exists: msg`Ce relevé est déjà enregistré pour cette réservation.`,
  handover_wrong_status: msg`La réservation n’en est pas à cette étape : la prise en charge se fait sur une réservation confirmée ou en cours, le retour sur une location en cours ou terminée.`,
  pickup_missing: msg`Enregistrez d’abord la prise en charge.`,
  odometer_invalid: msg`Le kilométrage est un nombre entier de 0 à 2 000 000 km.`,
  odometer_below_pickup: msg`Le kilométrage au retour ne peut pas être inférieur à celui de la prise en charge.`,
  fuel_invalid: msg`Le niveau de carburant va de 0 à 8 huitièmes.`,
  id_document_required: msg`Indiquez la pièce d’identité vérifiée et son numéro (4 à 30 lettres ou chiffres).`,
  licence_not_seen: msg`Le permis de conduire doit avoir été vu.`,
  deposit_invalid: msg`Le montant de la caution n’est pas valide.`,
  deposit_reason_required: msg`Indiquez pourquoi la caution est retenue.`,
  deposit_reason_too_long: msg`Le motif de la retenue fait au plus ${ph({ max: LIMITS.text })} caractères.`,
  photo_invalid: msg`Une photo du relevé n’est pas valide.`,
  photo_missing: msg`Une photo du relevé n’est pas arrivée sur le serveur.`,
  damage_invalid: msg`Un dommage signalé n’est pas valide.`,
  notes_too_long: msg`Les notes font au plus ${ph({ max: LIMITS.text })} caractères.`,
  notes_invalid: msg`Les notes contiennent des caractères invisibles.`,
  // Opening hours of the places (docs/opening-hours.md).
  pickup_outside_hours: msg`Le lieu de prise en charge est fermé à l’heure choisie. Choisissez une heure dans ses horaires d’ouverture, ou un autre lieu.`,
  return_outside_hours: msg`Le lieu de retour est fermé à l’heure choisie. Choisissez une heure dans ses horaires d’ouverture, ou un autre lieu.`,
  invalid_opening_hours: msg`Chaque jour ouvert doit fermer après son heure d’ouverture.`,
  too_many_closed_dates: msg`Un lieu a au plus 366 jours de fermeture.`,
  // Prices staff change (docs/staff-prices.md).
  invalid_price: msg`Un prix est un nombre entier de DZD, de 0 à 1 000 000 (0 pour une assurance incluse).`,
  name_required: msg`Le nom est obligatoire en français, en anglais et en arabe.`,
  name_too_long: msg`Un nom fait au plus ${ph({ max: LIMITS.name })} caractères.`,
  // A car's pictures (staff_set_car_pictures, docs/fleet.md, "Pictures").
  too_many_pictures: msg`Une voiture a au plus 12 photos.`,
  not_an_image: msg`Ce fichier n’est pas une image JPEG, PNG, WebP ou HEIC.`,
  picture_not_found: msg`Une photo n’a pas été trouvée sur le serveur. Rechargez la page et réessayez.`,
  invalid_picture: msg`Une photo n’a pas été trouvée sur le serveur. Rechargez la page et réessayez.`,
  duplicate_picture: msg`Une photo n’a pas été trouvée sur le serveur. Rechargez la page et réessayez.`,
  picture_rejected: msg`Le serveur a refusé une photo : son contenu n’est pas une image valide.`,
};

/**
 * Codes the server may answer that never reach a screen, and why. Every other code SQL can raise
 * or answer has a message above (scripts/error-codes.test.ts reads supabase/schema).
 */
export const unshownErrorCodes: Record<string, string> = {
  booking_not_refused:
    'report_refused_booking: the outbox sends the booking again (src/sync/outbox/senders/create-booking.ts)',
  booking_would_be_created: 'raised and caught inside report_refused_booking: never leaves it',
  pictures_through_rpc:
    'a direct write of cars.images (trigger cars_guard_pictures): the app saves pictures through staff_set_car_pictures only',
  car_blocked:
    'the message of the bookings_no_overlap violation a block causes (internal.sync_booking_hold): callers answer car_unavailable',
};

/** Whether `code` has its own message (not the generic one). */
export function hasBookingErrorMessage(code: string): boolean {
  return Object.hasOwn(messages, code);
}

/** The spec's generic message when a booking cannot be created (docs/product.md §8). */
export const bookingErrorTitle = msg`Erreur de réservation`;
export const bookingErrorGeneric = msg`Une erreur s’est produite lors de la création de votre réservation. Veuillez réessayer.`;

export function bookingErrorMessage(code: string | null | undefined): MessageDescriptor {
  return (code && messages[code]) || bookingErrorGeneric;
}

/** Refusals that may pass later as they are (limits, files still being checked): "Retry". */
const RETRYABLE = new Set([
  'booking_rate_limited',
  'too_many_pending_for_contact',
  'too_many_pending_for_account',
  'too_many_pending_for_domain',
  'too_many_pending_from_address',
  'files_not_checked',
  'rate_limited',
  'network',
  'unknown',
]);

/**
 * Whether sending the same thing again can succeed: never for a car taken, a date, a typed value
 * or a retired choice (those need a change, offered beside the reason).
 */
export function isRetryableRefusal(code: string | null | undefined): boolean {
  return !code || RETRYABLE.has(code);
}
