import { msg, ph } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

import { LIMITS } from '@/domain/limits';

import { PASSWORD_MAX, PASSWORD_MIN } from '@/features/auth/auth.schema';

/**
 * What the auth API answered, reduced to what the screens need (supabase-js's AuthError fields).
 * `status` 0 means no answer (offline, timeout).
 */
export type AuthFailure = {
  name?: string;
  status?: number;
  code?: string;
  message?: string;
  /** For a weak password: why ('length', 'characters', 'pwned'). */
  reasons?: string[];
};

export type AuthAction =
  | 'signIn'
  | 'signUp'
  | 'recover'
  | 'updatePassword'
  /** The account page (src/features/auth/account-*.tsx). */
  | 'changePassword'
  | 'updateProfile'
  | 'changeEmail'
  | 'confirmEmailChange'
  | 'factor';

export function toAuthFailure(error: unknown): AuthFailure {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const e = error as Record<string, unknown>;
  const weak = e.weakPassword as { reasons?: unknown } | undefined;
  const reasons = Array.isArray(e.reasons) ? e.reasons : weak?.reasons;
  return {
    name: typeof e.name === 'string' ? e.name : undefined,
    status: typeof e.status === 'number' ? e.status : undefined,
    code: typeof e.code === 'string' ? e.code : undefined,
    message: typeof e.message === 'string' ? e.message : undefined,
    reasons: Array.isArray(reasons) ? reasons.filter((r) => typeof r === 'string') : undefined,
  };
}

const messages = {
  unableToSignIn: msg`Impossible de se connecter`,
  unableToSignUp: msg`Impossible de créer le compte`,
  wrongCredentials: msg`Email ou mot de passe incorrect. Veuillez réessayer.`,
  loginFailed: msg`La connexion a échoué. Veuillez réessayer.`,
  offline: msg`Pas de connexion. Vérifiez votre réseau et réessayez.`,
  emailNotConfirmed: msg`Veuillez d'abord confirmer votre adresse e-mail (voir le message reçu).`,
  accountExists: msg`Un compte existe déjà avec cette adresse e-mail. Connectez-vous ou réinitialisez le mot de passe.`,
  tooManyAttempts: msg`Trop de tentatives. Patientez une minute puis réessayez.`,
  tooManyEmails: msg`Trop d'e-mails demandés. Patientez quelques minutes avant de réessayer.`,
  signupDisabled: msg`Les inscriptions sont fermées pour le moment.`,
  invalidEmail: msg`Veuillez saisir une adresse e-mail valide`,
  weakLength: msg`Mot de passe trop court : au moins ${ph({ min: PASSWORD_MIN })} caractères.`,
  weakCharacters: msg`Mot de passe trop simple : il faut une majuscule, une minuscule, un chiffre et un caractère spécial.`,
  weakPwned: msg`Ce mot de passe figure dans des fuites de données connues. Choisissez-en un autre.`,
  weakGeneric: msg`Ce mot de passe est trop faible. Choisissez-en un plus robuste.`,
  passwordTooLong: msg`Mot de passe trop long : ${ph({ max: PASSWORD_MAX })} octets au plus (un caractère arabe ou accentué en compte deux).`,
  samePassword: msg`Le nouveau mot de passe doit être différent de l'ancien.`,
  linkExpired: msg`Votre lien de réinitialisation a expiré. Demandez-en un nouveau.`,
  codeInvalid: msg`Code incorrect ou expiré. Vérifiez le dernier e-mail reçu ou demandez un nouveau code.`,
  recoverFailed: msg`Impossible d'envoyer l'e-mail. Veuillez réessayer.`,
  updateFailed: msg`Impossible de changer le mot de passe. Veuillez réessayer.`,
  profileName: msg`Le nom complet est requis, en ${ph({ max: LIMITS.name })} caractères au plus, sans retour à la ligne.`,
  profilePhone: msg`Le téléphone doit être au format international, par exemple +213555123456.`,
  profileUnderAge: msg`Il faut avoir au moins ${ph({ min: LIMITS.ageMin })} ans pour créer un compte.`,
  profileAge: msg`Veuillez saisir un âge valide (un nombre entier).`,
  profileAddress: msg`L'adresse est requise, en ${ph({ max: LIMITS.address })} caractères au plus, sans retour à la ligne.`,
  profileInvalid: msg`Certaines informations du profil sont invalides. Vérifiez-les puis réessayez.`,
  profileFailed: msg`Impossible d'enregistrer le profil. Veuillez réessayer.`,
  reauthenticationInvalid: msg`Code de confirmation incorrect ou expiré. Demandez-en un nouveau.`,
  emailTaken: msg`Cette adresse e-mail est déjà utilisée par un autre compte.`,
  emailChangeFailed: msg`Impossible de changer l'adresse e-mail. Veuillez réessayer.`,
  factorWrong: msg`Code incorrect. Saisissez le code affiché maintenant par l'application.`,
  factorNeedsAal2: msg`Confirmez d'abord avec un code de votre application d'authentification (reconnectez-vous).`,
  factorFailed: msg`L'opération a échoué. Veuillez réessayer.`,
} satisfies Record<string, MessageDescriptor>;

export const authErrorMessages = messages;

/**
 * The Before User Created hook refuses bad profile data with `<field>: <reason>` (supabase
 * migration auth_hooks; GoTrue gives it no error code of its own).
 */
function profileMessage(message: string | undefined): MessageDescriptor | null {
  const match = /^(name|full_name|phone|age|address|locale): (\w+)$/.exec(message ?? '');
  if (!match) return null;
  const [, field, reason] = match;
  if (field === 'name' || field === 'full_name') return messages.profileName;
  if (field === 'phone') return messages.profilePhone;
  if (field === 'address') return messages.profileAddress;
  if (field === 'age')
    return reason === 'under_age' ? messages.profileUnderAge : messages.profileAge;
  return messages.profileInvalid;
}

function weakPasswordMessages(reasons: string[] | undefined): MessageDescriptor[] {
  const list = (reasons ?? []).flatMap((reason) =>
    reason === 'length'
      ? [messages.weakLength]
      : reason === 'characters'
        ? [messages.weakCharacters]
        : reason === 'pwned'
          ? [messages.weakPwned]
          : [],
  );
  return list.length > 0 ? list : [messages.weakGeneric];
}

/**
 * The translated message(s) for a failed auth call (docs/product.md §8). Known codes get a precise message;
 * anything else the generic one of the action. `null` (a call that returned nothing) gives
 * 'Unable to sign in' / 'Unable to sign up'. The server's own text is never shown: it is English.
 */
export function authErrorMessage(action: AuthAction, error: unknown): MessageDescriptor[] {
  if (error === null || error === undefined) {
    return [
      action === 'signUp'
        ? messages.unableToSignUp
        : action === 'signIn'
          ? messages.unableToSignIn
          : action === 'recover'
            ? messages.recoverFailed
            : messages.updateFailed,
    ];
  }
  const f = toAuthFailure(error);
  const code = f.code ?? '';

  if (f.name === 'AuthRetryableFetchError' || f.status === 0 || f.name === 'TimeoutError') {
    return [messages.offline];
  }
  if (f.name === 'AuthWeakPasswordError' || code === 'weak_password') {
    return weakPasswordMessages(f.reasons);
  }
  if (code === 'over_email_send_rate_limit' || code === 'over_sms_send_rate_limit') {
    return [messages.tooManyEmails];
  }
  if (code === 'over_request_rate_limit' || f.status === 429) return [messages.tooManyAttempts];
  if (code === 'validation_failed' && /password/i.test(f.message ?? '')) {
    return [messages.passwordTooLong];
  }
  if (code === 'email_address_invalid' || code === 'validation_failed') {
    return [messages.invalidEmail];
  }

  switch (action) {
    case 'signIn':
      if (code === 'invalid_credentials' || (f.status === 400 && !code)) {
        return [messages.wrongCredentials];
      }
      if (code === 'email_not_confirmed') return [messages.emailNotConfirmed];
      // A sign-in code (verifyOtp): wrong, used, replaced or past its hour.
      if (code === 'otp_expired') return [messages.codeInvalid];
      return [messages.loginFailed];
    case 'signUp': {
      const profile = profileMessage(f.message);
      if (profile) return [profile];
      if (code === 'user_already_exists' || code === 'email_exists') {
        return [messages.accountExists];
      }
      if (code === 'signup_disabled' || code === 'email_provider_disabled') {
        return [messages.signupDisabled];
      }
      return [messages.unableToSignUp];
    }
    case 'recover':
      return [messages.recoverFailed];
    case 'updatePassword':
      if (code === 'same_password') return [messages.samePassword];
      if (
        f.name === 'AuthSessionMissingError' ||
        code === 'session_not_found' ||
        code === 'session_expired' ||
        code === 'bad_jwt' ||
        f.status === 401 ||
        f.status === 403
      ) {
        return [messages.linkExpired];
      }
      return [messages.updateFailed];
    case 'changePassword':
      if (code === 'same_password') return [messages.samePassword];
      if (code === 'reauthentication_not_valid') return [messages.reauthenticationInvalid];
      return [messages.updateFailed];
    case 'updateProfile': {
      // The profile trigger's refusal (internal.fail): message `invalid_<field>`, details
      // `<field>: <reason>` (PostgREST's error shape).
      const details = (error as { details?: unknown }).details;
      const reason = typeof details === 'string' ? details : f.message;
      return [profileMessage(reason) ?? messages.profileFailed];
    }
    case 'changeEmail':
      if (code === 'email_exists' || code === 'user_already_exists') return [messages.emailTaken];
      return [messages.emailChangeFailed];
    case 'confirmEmailChange':
      if (code === 'otp_expired') return [messages.codeInvalid];
      return [messages.emailChangeFailed];
    case 'factor':
      if (code === 'mfa_verification_failed' || code === 'mfa_challenge_expired') {
        return [messages.factorWrong];
      }
      if (code === 'insufficient_aal') return [messages.factorNeedsAal2];
      return [messages.factorFailed];
  }
}
