import { type SignInValues, type SignUpValues, signUpMetadata } from '@/features/auth/auth.schema';
import { adoptSession } from '@/infra/session';
import { supabase } from '@/infra/supabase';

/**
 * The calls of the account screens. A failure carries supabase-js's error, or null when the
 * server answered without a result (the screens then say 'Unable to sign in/up').
 */
export type AuthResult = { ok: true } | { ok: false; error: unknown };

export async function signIn(values: SignInValues): Promise<AuthResult> {
  const { data, error } = await supabase.auth.signInWithPassword({
    email: values.email,
    password: values.password,
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
      data: signUpMetadata(values),
      emailRedirectTo: `${window.location.origin}/sign-in`,
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
    redirectTo: `${window.location.origin}/reset-password`,
  });
  return error ? { ok: false, error } : { ok: true };
}

export async function updatePassword(password: string): Promise<AuthResult> {
  const { error } = await supabase.auth.updateUser({ password });
  return error ? { ok: false, error } : { ok: true };
}
