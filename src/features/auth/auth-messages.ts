import { msg, ph } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

import { LIMITS } from '@/domain/limits';

import { PASSWORD_MAX, PASSWORD_MIN, type AuthFieldMessageKey } from '@/features/auth/auth.schema';

/** The translated sentence of each validation key of auth.schema.ts (docs/product.md §5). */
export const authFieldMessages: Record<AuthFieldMessageKey, MessageDescriptor> = {
  'fullName.required': msg`Le nom complet est requis`,
  'fullName.max': msg`Le nom complet est trop long (${ph({ max: LIMITS.name })} caractères au maximum)`,
  'email.required': msg`L'adresse e-mail est requise`,
  'email.invalid': msg`Veuillez saisir une adresse e-mail valide`,
  'email.max': msg`L'adresse e-mail est trop longue`,
  'phone.required': msg`Le numéro de téléphone est requis`,
  'phone.invalid': msg`Veuillez saisir un numéro valide avec l'indicatif du pays (par exemple +213555123456)`,
  'age.required': msg`L'âge est requis`,
  'age.invalid': msg`Veuillez saisir un âge valide`,
  'age.min': msg`Vous devez avoir au moins ${ph({ min: LIMITS.ageMin })} ans`,
  'age.max': msg`Veuillez saisir un âge valide`,
  'address.required': msg`L'adresse complète est requise`,
  'address.max': msg`L'adresse est trop longue (${ph({ max: LIMITS.address })} caractères au maximum)`,
  'password.required': msg`Le mot de passe est requis`,
  'password.min': msg`Le mot de passe doit contenir au moins ${ph({ min: PASSWORD_MIN })} caractères`,
  'password.max': msg`Le mot de passe est trop long : ${ph({ max: PASSWORD_MAX })} octets au maximum (un caractère accentué ou arabe en compte deux)`,
  'password.uppercase': msg`Le mot de passe doit contenir une lettre majuscule`,
  'password.lowercase': msg`Le mot de passe doit contenir une lettre minuscule`,
  'password.number': msg`Le mot de passe doit contenir un chiffre`,
  'password.special': msg`Le mot de passe doit contenir un caractère spécial`,
  'confirmPassword.required': msg`Veuillez confirmer le mot de passe`,
  'confirmPassword.mismatch': msg`Les mots de passe ne correspondent pas`,
};

export function isAuthFieldMessageKey(value: unknown): value is AuthFieldMessageKey {
  return typeof value === 'string' && Object.hasOwn(authFieldMessages, value);
}
