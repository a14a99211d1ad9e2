/**
 * The calls of a guest's "also open my account" step (docs/decisions.md, "Guest bookings join an
 * account"), apart from booking-api.ts so the booking screens load them only when chosen.
 */
import type { LocalBooking } from '@/domain/local-booking';
import type { Booking } from '@/domain/rows';
import { captchaToken } from '@/infra/captcha';
import { db } from '@/infra/db';
import { adoptSession } from '@/infra/session';
import { supabase } from '@/infra/supabase';
import { mergeServerBookings } from '@/sync/bookings-sync';
import { classifyError, type ApiError } from '@/sync/outbox/errors';

/** The profile a new account needs (the Before User Created hook checks it, docs/auth.md). */
export type AccountProfile = {
  name: string;
  phone: string;
  age: number;
  address: string;
  locale: string;
};

export type AccountStep = { ok: true } | { ok: false; error: unknown };

/**
 * GoTrue mails the address a code that opens its account (with `profile`), or signs into the
 * account it already has: the same answer either way.
 */
export async function requestAccountCode(
  email: string,
  profile: AccountProfile,
): Promise<AccountStep> {
  try {
    const { error } = await supabase.auth.signInWithOtp({
      email,
      options: { shouldCreateUser: true, data: profile, captchaToken: await captchaToken() },
    });
    return error ? { ok: false, error } : { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The mailed code signs this device in (verifyOtp type 'email'). */
export async function signInWithAccountCode(email: string, code: string): Promise<AccountStep> {
  try {
    const { data, error } = await supabase.auth.verifyOtp({ email, token: code, type: 'email' });
    if (error || !data.session) return { ok: false, error };
    adoptSession(data.session);
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The server's answer for one booking named (`claim_guest_bookings`). */
export type JoinAnswer = {
  id: string;
  reference: string;
  joined: boolean;
  reason?: string;
  booking?: Booking;
};

export type JoinResult = { kind: 'done'; answers: JoinAnswer[] } | { kind: 'error'; code: string };

/** At most this many bookings per call (the server's own maximum). */
const JOIN_MAX = 10;

/**
 * The guest bookings of this device with `email` as contact that reached the server, `first`
 * first, then the newest (at most JOIN_MAX).
 */
export async function joinableGuestBookings(
  email: string,
  first?: string,
): Promise<LocalBooking[]> {
  const address = email.trim().toLowerCase();
  const rows = await db.bookings
    .filter(
      (b) =>
        b.user_id === null &&
        (b.guest_email ?? '').trim().toLowerCase() === address &&
        b.status !== 'queued' &&
        b.status !== 'sync_failed' &&
        b.status !== 'expired',
    )
    .toArray();
  rows.sort((a, b) =>
    a.id === first ? -1 : b.id === first ? 1 : b.created_at.localeCompare(a.created_at),
  );
  return rows.slice(0, JOIN_MAX);
}

/**
 * `claim_guest_bookings`: the signed-in account takes the device's guest bookings of its address
 * (each proved by its id and reference); the rows here move from guest to the account, so My
 * bookings shows them at once, offline too.
 */
export async function joinGuestBookings(email: string, first?: string): Promise<JoinResult> {
  const bookings = await joinableGuestBookings(email, first);
  if (bookings.length === 0) return { kind: 'done', answers: [] };
  try {
    const { data, error, status } = await supabase.rpc('claim_guest_bookings', {
      items: bookings.map((b) => ({ id: b.id, reference: b.reference })),
    });
    if (error)
      return { kind: 'error', code: classifyError({ ...(error as ApiError), status }).code };
    const answers = (Array.isArray(data) ? data : []) as JoinAnswer[];
    const rows = (joined: boolean) =>
      answers.flatMap((a) => (a.booking && a.joined === joined ? [a.booking] : []));
    await mergeServerBookings(rows(true), { isGuest: false });
    await mergeServerBookings(rows(false), { isGuest: true });
    return { kind: 'done', answers };
  } catch (error) {
    return { kind: 'error', code: String(error) };
  }
}
