import { type SignInValues, type SignUpValues, signUpMetadata } from '@/features/auth/auth.schema';
import { captchaToken } from '@/infra/captcha';
import { currentLocale } from '@/infra/i18n';
import { adoptSession } from '@/infra/session';
import { supabase } from '@/infra/supabase';

/**
 * A page of the app for an auth mail's link, with the reader's language: the mail (local stack or
 * the `send-email` Edge Function) is written in `lang` (docs/auth.md).
 */
export function authRedirect(path: string): string {
  return `${window.location.origin}${path}?lang=${currentLocale()}`;
}

/**
 * The calls of the account screens. A failure carries supabase-js's error, or null when the
 * server answered without a result (the screens then say 'Unable to sign in/up').
 */
export type AuthResult = { ok: true } | { ok: false; error: unknown };

export async function signIn(values: SignInValues): Promise<AuthResult> {
  const { data, error } = await supabase.auth.signInWithPassword({
    email: values.email,
    password: values.password,
    options: { captchaToken: await captchaToken() },
  });
  if (error) return { ok: false, error };
  if (!data.session) return { ok: false, error: null };
  adoptSession(data.session);
  return { ok: true };
}

export type SignUpResult =
  | { status: 'signedIn' }
  /** The account exists but must be confirmed by email before signing in (production setting). */
  | { status: 'confirmEmail' }
  | { status: 'failed'; error: unknown };

export async function signUp(values: SignUpValues): Promise<SignUpResult> {
  const { data, error } = await supabase.auth.signUp({
    email: values.email,
    password: values.password,
    options: {
      // The locale lets later mails (recovery, e-mail change) speak the user's language.
      data: { ...signUpMetadata(values), locale: currentLocale() },
      emailRedirectTo: authRedirect('/sign-in'),
      captchaToken: await captchaToken(),
    },
  });
  if (error) return { status: 'failed', error };
  if (data.session) {
    adoptSession(data.session);
    return { status: 'signedIn' };
  }
  if (data.user) return { status: 'confirmEmail' };
  return { status: 'failed', error: null };
}

/** Sends the recovery mail; its link opens /reset-password signed in for a password change. */
export async function requestPasswordReset(email: string): Promise<AuthResult> {
  const { error } = await supabase.auth.resetPasswordForEmail(email, {
    redirectTo: authRedirect('/reset-password'),
    captchaToken: await captchaToken(),
  });
  return error ? { ok: false, error } : { ok: true };
}

export async function updatePassword(password: string): Promise<AuthResult> {
  const { error } = await supabase.auth.updateUser({ password });
  return error ? { ok: false, error } : { ok: true };
}

/**
 * Mails a sign-in code to an existing account (docs/auth.md "Sign in with a code"). An address
 * without an account gets the same answer as one with (GoTrue's `otp_disabled` is not shown), so
 * the page reveals no accounts.
 */
export async function requestSignInCode(email: string): Promise<AuthResult> {
  const { error } = await supabase.auth.signInWithOtp({
    email,
    options: {
      shouldCreateUser: false,
      emailRedirectTo: authRedirect('/sign-in'),
      captchaToken: await captchaToken(),
    },
  });
  if (error && (error as { code?: string }).code !== 'otp_disabled') return { ok: false, error };
  return { ok: true };
}

/** Signs in with the code of the mail (typed: it works where the mail's link cannot). */
export async function signInWithCode(email: string, code: string): Promise<AuthResult> {
  const { data, error } = await supabase.auth.verifyOtp({ email, token: code, type: 'email' });
  if (error) return { ok: false, error };
  if (!data.session) return { ok: false, error: null };
  adoptSession(data.session);
  return { ok: true };
}
