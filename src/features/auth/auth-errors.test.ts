import { beforeAll, describe, expect, it } from 'vitest';

import { authErrorMessage, authErrorMessages, toAuthFailure } from '@/features/auth/auth-errors';
import { activateLocale, i18n, loadFeatureCatalog } from '@/infra/i18n';

/** supabase-js's error shapes (AuthApiError, AuthRetryableFetchError, AuthWeakPasswordError). */
const apiError = (status: number, code?: string) => ({
  name: 'AuthApiError',
  status,
  code,
  message: 'server text',
});

describe('authErrorMessage', () => {
  const m = authErrorMessages;

  it('maps sign-in failures to the spec messages', () => {
    expect(authErrorMessage('signIn', apiError(400, 'invalid_credentials'))).toEqual([
      m.wrongCredentials,
    ]);
    expect(authErrorMessage('signIn', apiError(500, 'unexpected_failure'))).toEqual([
      m.loginFailed,
    ]);
    expect(authErrorMessage('signIn', null)).toEqual([m.unableToSignIn]);
    expect(authErrorMessage('signIn', apiError(400, 'email_not_confirmed'))).toEqual([
      m.emailNotConfirmed,
    ]);
  });

  it('maps the account page failures', () => {
    // The profile trigger's refusal (internal.check_profile_text), through PostgREST.
    const refusal = (details: string) => ({
      code: 'P0001',
      message: `invalid_${details.split(':')[0]}`,
      details,
      hint: null,
    });
    expect(authErrorMessage('updateProfile', refusal('full_name: too_long'))).toEqual([
      m.profileName,
    ]);
    expect(authErrorMessage('updateProfile', refusal('age: under_age'))).toEqual([
      m.profileUnderAge,
    ]);
    expect(authErrorMessage('updateProfile', refusal('phone: format'))).toEqual([m.profilePhone]);
    expect(authErrorMessage('updateProfile', refusal('something else'))).toEqual([m.profileFailed]);
    expect(authErrorMessage('changeEmail', apiError(422, 'email_exists'))).toEqual([m.emailTaken]);
    expect(authErrorMessage('changeEmail', apiError(400, 'validation_failed'))).toEqual([
      m.invalidEmail,
    ]);
    expect(authErrorMessage('confirmEmailChange', apiError(403, 'otp_expired'))).toEqual([
      m.codeInvalid,
    ]);
    expect(authErrorMessage('changePassword', apiError(400, 'reauthentication_not_valid'))).toEqual(
      [m.reauthenticationInvalid],
    );
    expect(authErrorMessage('changePassword', apiError(422, 'same_password'))).toEqual([
      m.samePassword,
    ]);
    expect(authErrorMessage('factor', apiError(422, 'mfa_verification_failed'))).toEqual([
      m.factorWrong,
    ]);
    expect(authErrorMessage('factor', apiError(422, 'insufficient_aal'))).toEqual([
      m.factorNeedsAal2,
    ]);
  });

  it('maps sign-up failures', () => {
    expect(authErrorMessage('signUp', null)).toEqual([m.unableToSignUp]);
    expect(authErrorMessage('signUp', apiError(422, 'user_already_exists'))).toEqual([
      m.accountExists,
    ]);
    expect(authErrorMessage('signUp', apiError(422, 'email_exists'))).toEqual([m.accountExists]);
    expect(authErrorMessage('signUp', apiError(422, 'signup_disabled'))).toEqual([
      m.signupDisabled,
    ]);
    expect(authErrorMessage('signUp', apiError(500))).toEqual([m.unableToSignUp]);
    expect(
      authErrorMessage('signUp', {
        ...apiError(400, 'validation_failed'),
        message: 'Password cannot be longer than 72 characters',
      }),
    ).toEqual([m.passwordTooLong]);
    expect(
      authErrorMessage('signUp', {
        ...apiError(400, 'validation_failed'),
        message: 'Unable to validate email address: invalid format',
      }),
    ).toEqual([m.invalidEmail]);
  });

  it('names the field of profile data the Before User Created hook refused', () => {
    const hook = (message: string) => ({ ...apiError(422, 'unknown'), message });
    expect(authErrorMessage('signUp', hook('age: under_age'))).toEqual([m.profileUnderAge]);
    expect(authErrorMessage('signUp', hook('age: format'))).toEqual([m.profileAge]);
    expect(authErrorMessage('signUp', hook('phone: format'))).toEqual([m.profilePhone]);
    expect(authErrorMessage('signUp', hook('name: control_characters'))).toEqual([m.profileName]);
    expect(authErrorMessage('signUp', hook('address: too_long'))).toEqual([m.profileAddress]);
    expect(authErrorMessage('signUp', hook('locale: format'))).toEqual([m.profileInvalid]);
  });

  it('explains each weak-password reason', () => {
    const weak = {
      name: 'AuthWeakPasswordError',
      status: 422,
      code: 'weak_password',
      reasons: ['length', 'pwned'],
    };
    expect(authErrorMessage('signUp', weak)).toEqual([m.weakLength, m.weakPwned]);
    expect(authErrorMessage('updatePassword', { ...weak, reasons: ['characters'] })).toEqual([
      m.weakCharacters,
    ]);
    expect(authErrorMessage('signUp', { ...apiError(422, 'weak_password') })).toEqual([
      m.weakGeneric,
    ]);
  });

  it('tells rate limits and lost connections apart', () => {
    expect(authErrorMessage('signIn', apiError(429, 'over_request_rate_limit'))).toEqual([
      m.tooManyAttempts,
    ]);
    expect(authErrorMessage('recover', apiError(429, 'over_email_send_rate_limit'))).toEqual([
      m.tooManyEmails,
    ]);
    expect(authErrorMessage('signIn', apiError(429))).toEqual([m.tooManyAttempts]);
    expect(
      authErrorMessage('signIn', { name: 'AuthRetryableFetchError', status: 0, message: 'x' }),
    ).toEqual([m.offline]);
  });

  it('maps password-change failures', () => {
    expect(authErrorMessage('updatePassword', apiError(422, 'same_password'))).toEqual([
      m.samePassword,
    ]);
    expect(
      authErrorMessage('updatePassword', { name: 'AuthSessionMissingError', status: 400 }),
    ).toEqual([m.linkExpired]);
    expect(authErrorMessage('updatePassword', apiError(401))).toEqual([m.linkExpired]);
    expect(authErrorMessage('updatePassword', apiError(500))).toEqual([m.updateFailed]);
    expect(authErrorMessage('recover', apiError(500))).toEqual([m.recoverFailed]);
  });

  it('reads the reasons of a weak password from either place supabase-js puts them', () => {
    expect(toAuthFailure({ weakPassword: { reasons: ['length'] } }).reasons).toEqual(['length']);
    expect(toAuthFailure('boom')).toEqual({ message: 'boom' });
  });
});

describe('auth error messages in each language', () => {
  beforeAll(() => loadFeatureCatalog('auth'));

  it('shows the spec sentences in English, and complete French and Arabic', async () => {
    await activateLocale('en');
    expect(i18n._(authErrorMessages.wrongCredentials)).toBe(
      'Incorrect email or password. Please try again.',
    );
    expect(i18n._(authErrorMessages.loginFailed)).toBe('Login failed. Please try again.');
    expect(i18n._(authErrorMessages.unableToSignIn)).toBe('Unable to sign in');
    expect(i18n._(authErrorMessages.unableToSignUp)).toBe('Unable to sign up');
    const english = Object.values(authErrorMessages).map((d) => i18n._(d));

    await activateLocale('ar');
    expect(i18n._(authErrorMessages.wrongCredentials)).toBe(
      'البريد الإلكتروني أو كلمة المرور غير صحيحة. يرجى المحاولة مجددًا.',
    );
    const arabic = Object.values(authErrorMessages).map((d) => i18n._(d));

    await activateLocale('fr');
    expect(i18n._(authErrorMessages.wrongCredentials)).toBe(
      'Email ou mot de passe incorrect. Veuillez réessayer.',
    );
    const french = Object.values(authErrorMessages).map((d) => i18n._(d));
    english.forEach((text, i) => expect(text).not.toBe(french[i]));
    arabic.forEach((text, i) => expect(text).not.toBe(french[i]));
  });
});
