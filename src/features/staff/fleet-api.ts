/**
 * The fleet screen's calls (docs/fleet.md, "Fleet"): admins insert and update `cars` directly
 * (their RLS policies; the table's CHECKs validate every field); nobody deletes a car: retiring
 * sets `active = false`, and the catalogue delta carries it to customers' devices.
 */
import { reportServerReachable } from '@/infra/network';
import { supabase } from '@/infra/supabase';
import { classifyError, type ApiError } from '@/sync/outbox/errors';

import type { CarForm, FleetCar } from '@/features/staff/fleet';
import type { StaffResult } from '@/features/staff/staff-api';

type Answer = { data: unknown; error: (ApiError & { message?: string }) | null; status: number };

/** A refused row: the CHECK that failed names the field (`cars_<field>_…`). */
export type FleetFailure = { code: string; constraint: string | null };

async function call<T>(
  run: () => PromiseLike<unknown>,
): Promise<StaffResult<T> & { constraint?: string | null }> {
  let answer: Answer;
  try {
    answer = (await run()) as Answer;
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

const FLEET_SELECT =
  'id, slug, name, make, model, body, seats, doors, passengers, fuel, year, transmission, drive, engine, mileage_km, exterior_color, interior_color, features, description, daily_rate_dzd, deposit_dzd, images, active';

/** Every car, retired ones last. */
export function listFleet() {
  return call<FleetCar[]>(() =>
    supabase
      .from('cars')
      .select(FLEET_SELECT)
      .order('active', { ascending: false })
      .order('name')
      .limit(1000),
  );
}

export function addCar(row: CarForm & { slug: string }) {
  return call<FleetCar>(() => supabase.from('cars').insert(row).select(FLEET_SELECT).single());
}

export function updateCar(id: string, row: Partial<CarForm> & { active?: boolean }) {
  return call<FleetCar>(() =>
    supabase.from('cars').update(row).eq('id', id).select(FLEET_SELECT).single(),
  );
}
