/**
 * Every staff call's answer (docs/fleet.md, docs/bookings.md): a supabase-js answer, or a thrown
 * network error, as a result with a stable code. Apart from the calls themselves so that each
 * staff screen loads only its own (the fleet page does not carry the board's code).
 */
import { reportServerReachable } from '@/infra/network';
import { classifyError, type ApiError } from '@/sync/outbox/errors';

export type StaffResult<T> =
  | { ok: true; data: T }
  /** `constraint`: the CHECK or EXCLUDE a refused write broke, when Postgres named one. */
  | { ok: false; code: string; offline: boolean; constraint?: string | null };

export type Answer<T> = {
  data: T | null;
  error: (ApiError & { message?: string }) | null;
  status: number;
  count?: number | null;
};

/**
 * Turns a supabase-js answer (or a thrown network error) into a result with a stable code; every
 * staff call goes through it (the board, the calendar, the fleet).
 */
export async function staffCall<T>(run: () => PromiseLike<unknown>): Promise<StaffResult<T>> {
  let answer: Answer<T>;
  try {
    answer = (await run()) as Answer<T>;
  } catch {
    reportServerReachable(false);
    return { ok: false, code: 'network', offline: true };
  }
  if (answer.error) {
    const failure = classifyError({ ...answer.error, status: answer.status });
    const offline = failure.code === 'network';
    reportServerReachable(!offline);
    const constraint = /constraint "([a-z_]+)"/.exec(answer.error.message ?? '')?.[1] ?? null;
    return { ok: false, code: failure.code, offline, constraint };
  }
  reportServerReachable(true);
  return { ok: true, data: answer.data as T };
}
