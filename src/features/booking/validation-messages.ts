import type { I18n } from '@lingui/core';
import { msg, ph } from '@lingui/core/macro';

import { LIMITS } from '@/domain/limits';

/**
 * The booking form's messages (docs/product.md §5), in the current language. Schemas take them as an
 * argument so one schema serves the form (messages shown) and the wizard machine (validity only).
 */
export function validationMessages(i18n: I18n) {
  const required = (field: string) => i18n._(msg`${field} est obligatoire`);
  return {
    required,
    fields: {
      car: i18n._(msg`Voiture`),
      startDate: i18n._(msg`Date de prise en charge`),
      startTime: i18n._(msg`Heure de prise en charge`),
      endDate: i18n._(msg`Date de retour`),
      endTime: i18n._(msg`Heure de retour`),
      pickupLocation: i18n._(msg`Lieu de prise en charge`),
      dropoffLocation: i18n._(msg`Lieu de retour`),
      driverOption: i18n._(msg`Option chauffeur`),
      licence: i18n._(msg`Permis de conduire`),
      flightDocument: i18n._(msg`Documents de vol`),
      fullName: i18n._(msg`Nom complet`),
      phone: i18n._(msg`Numéro de téléphone`),
      email: i18n._(msg`Adresse e-mail`),
      paymentMethod: i18n._(msg`Mode de paiement`),
    },
    invalidDate: i18n._(msg`Veuillez saisir une date valide`),
    invalidTime: i18n._(msg`Veuillez saisir une heure valide`),
    pickupInPast: i18n._(msg`La prise en charge doit être dans le futur`),
    returnDateBeforePickup: i18n._(
      msg`La date de retour doit être postérieure à la date de prise en charge`,
    ),
    returnTimeBeforePickup: i18n._(
      msg`L’heure de retour doit être postérieure à l’heure de prise en charge`,
    ),
    rentalTooLong: i18n._(msg`Une location dure au plus ${ph({ days: LIMITS.rentalDays })} jours`),
    pickupClosed: i18n._(msg`Ce lieu est fermé à l’heure de prise en charge choisie`),
    returnClosed: i18n._(msg`Ce lieu est fermé à l’heure de retour choisie`),
    pickupTooFarAhead: (days: number) =>
      i18n._(msg`La prise en charge peut être au plus ${days} jours à l’avance`),
    invalidEmail: i18n._(msg`Veuillez saisir une adresse e-mail valide`),
    invalidPhone: i18n._(
      msg`Veuillez saisir un numéro valide avec l’indicatif du pays (par exemple +33612345678)`,
    ),
    tooLong: (max: number) => i18n._(msg`Ce champ est trop long (${max} caractères au plus)`),
    fileTooLarge: i18n._(msg`fichier trop volumineux`),
    unsupportedFileType: i18n._(msg`type de fichier non pris en charge`),
    conversionFailed: i18n._(
      msg`Impossible de convertir cette photo sur l’appareil. Choisissez une photo JPEG ou un PDF.`,
    ),
    acceptGuarantee: i18n._(
      msg`Veuillez confirmer que vous présenterez une pièce d’identité originale et la caution`,
    ),
    priceUnavailable: i18n._(
      msg`Le prix ne peut pas être calculé : les données du catalogue manquent sur cet appareil`,
    ),
  };
}

export type ValidationMessages = ReturnType<typeof validationMessages>;
