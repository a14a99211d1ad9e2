import { type SignInValues, type SignUpValues, signUpMetadata } from '@/features/auth/auth.schema';
import { captchaToken } from '@/infra/captcha';
import { currentLocale } from '@/infra/i18n';
import { adoptSession, signOut } from '@/infra/session';
import { supabase } from '@/infra/supabase';
import type { ModeSetting, ThemeSchema } from '@/infra/theme';

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

/** A staff invitation's code (docs/auth.md, "Staff invitations"): confirms and signs in once. */
export async function acceptInvite(email: string, code: string): Promise<AuthResult> {
  const { data, error } = await supabase.auth.verifyOtp({ email, token: code, type: 'invite' });
  if (error) return { ok: false, error };
  if (!data.session) return { ok: false, error: null };
  adoptSession(data.session);
  return { ok: true };
}

// --- The account settings page ---------------------------------------------------------------
/*
 * The calls of the account settings page (/account, docs/accounts.md "Account settings"):
 * profile, password (with the mailed reauthentication code when the server asks for it), e-mail
 * change with typed codes, factors, identities, sign-out everywhere. All through supabase-js.
 */

export type Profile = { fullName: string; phone: string; age: string; address: string };

/** The signed-in user's profile row (RLS: own row only). */
export async function loadProfile(userId: string): Promise<Profile | null> {
  const { data, error } = await supabase
    .from('profiles')
    .select('full_name, phone, age, address')
    .eq('id', userId)
    .maybeSingle();
  if (error || !data) return null;
  return {
    fullName: data.full_name ?? '',
    phone: data.phone ?? '',
    age: data.age == null ? '' : String(data.age),
    address: data.address ?? '',
  };
}

/**
 * Saves the profile: the row first (its trigger checks every field, `internal.check_profile_text`:
 * a refusal is `<field>: <reason>`), then the account's metadata, so the header's name follows.
 */
export async function saveProfile(
  userId: string,
  values: { fullName: string; phone: string; age: number; address: string },
): Promise<AuthResult> {
  const { error } = await supabase
    .from('profiles')
    .update({
      full_name: values.fullName,
      phone: values.phone,
      age: values.age,
      address: values.address,
    })
    .eq('id', userId);
  if (error) return { ok: false, error };
  const meta = { name: values.fullName, phone: values.phone, age: values.age };
  const { error: metaError } = await supabase.auth.updateUser({
    data: { ...meta, address: values.address },
  });
  return metaError ? { ok: false, error: metaError } : { ok: true };
}

export type PasswordChange =
  | { status: 'changed' }
  /** The server wants the mailed code first (`secure_password_change`): it has been sent. */
  | { status: 'needsCode' }
  | { status: 'failed'; error: unknown };

/**
 * Changes the password. Without `nonce`, the server may answer `reauthentication_needed`
 * (GoTrue with `secure_password_change` on and a session older than 24 h): then the code is
 * mailed (`reauthenticate()`) and the change is sent again with it.
 */
export async function changePassword(password: string, nonce?: string): Promise<PasswordChange> {
  const { error } = await supabase.auth.updateUser(nonce ? { password, nonce } : { password });
  if (!error) return { status: 'changed' };
  if ((error as { code?: string }).code === 'reauthentication_needed') {
    const sent = await supabase.auth.reauthenticate();
    return sent.error ? { status: 'failed', error: sent.error } : { status: 'needsCode' };
  }
  return { status: 'failed', error };
}

/** Mails the reauthentication code (8 digits) to the signed-in user. */
export async function sendReauthenticationCode(): Promise<AuthResult> {
  const { error } = await supabase.auth.reauthenticate();
  return error ? { ok: false, error } : { ok: true };
}

/** Asks for a new address: codes go to it (and to the current one: `double_confirm_changes`). */
export async function requestEmailChange(email: string): Promise<AuthResult> {
  const { error } = await supabase.auth.updateUser(
    { email },
    { emailRedirectTo: authRedirect('/account') },
  );
  return error ? { ok: false, error } : { ok: true };
}

export type EmailChangeStep =
  | { status: 'changed' }
  /** One of the two addresses confirmed; the other's code is still needed. */
  | { status: 'otherCodeNeeded' }
  | { status: 'failed'; error: unknown };

/** Confirms the change with the code mailed to `email` (the new or the current address). */
export async function confirmEmailChange(email: string, code: string): Promise<EmailChangeStep> {
  const { data, error } = await supabase.auth.verifyOtp({
    email,
    token: code,
    type: 'email_change',
  });
  if (error) return { status: 'failed', error };
  if (!data.session) return { status: 'otherCodeNeeded' };
  adoptSession(data.session);
  return { status: 'changed' };
}

/** The pending new address, if a change was asked and not yet confirmed. */
export async function pendingEmail(): Promise<string | null> {
  const { data } = await supabase.auth.getUser();
  return data.user?.new_email ?? null;
}

export type FactorRow = { id: string; name: string; status: string; createdAt: string };

export async function listFactors(): Promise<FactorRow[] | null> {
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) return null;
  return data.all
    .filter((f) => f.factor_type === 'totp')
    .map((f) => ({
      id: f.id,
      name: f.friendly_name ?? '',
      status: f.status,
      createdAt: f.created_at,
    }));
}

export async function enrolFactor() {
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'totp' });
  if (error || !data) return { ok: false as const, error };
  return { ok: true as const, id: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret };
}

export async function verifyFactor(factorId: string, code: string): Promise<AuthResult> {
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  return error ? { ok: false, error } : { ok: true };
}

export async function removeFactor(factorId: string): Promise<AuthResult> {
  const { error } = await supabase.auth.mfa.unenroll({ factorId });
  return error ? { ok: false, error } : { ok: true };
}

export type IdentityRow = { id: string; provider: string };

/** The account's ways to sign in (`GET /user` identities). */
export async function listIdentities(): Promise<IdentityRow[] | null> {
  const { data, error } = await supabase.auth.getUserIdentities();
  if (error) return null;
  return data.identities.map((i) => ({ id: i.identity_id ?? i.id, provider: i.provider }));
}

/**
 * Ends every session of the account on the server (supabase-js `scope: 'global'`), then this
 * device's like any sign-out. Offline, nothing ends: the page says so rather than pretend.
 */
export async function signOutEverywhere(): Promise<AuthResult> {
  const { error } = await supabase.auth.signOut({ scope: 'global' });
  if (error) return { ok: false, error };
  await signOut();
  return { ok: true };
}

/** Keeps the appearance with the account (user metadata `theme`), best effort. */
export async function saveAccountTheme(theme: {
  schema: ThemeSchema;
  mode: ModeSetting;
}): Promise<void> {
  await supabase.auth.updateUser({ data: { theme } }).catch(() => undefined);
}
