/**
 * The fleet screen's calls (docs/fleet.md, "Fleet"): admins insert and update `cars` directly
 * (their RLS policies; the table's CHECKs validate every field); nobody deletes a car: retiring
 * sets `active = false`, and the catalogue delta carries it to customers' devices.
 */
import { supabase } from '@/infra/supabase';

import type { CarForm, FleetCar } from '@/features/staff/fleet';
import { staffCall } from '@/features/staff/staff-call';

const FLEET_SELECT =
  'id, slug, name, make, model, body, seats, doors, passengers, fuel, year, transmission, drive, engine, mileage_km, exterior_color, interior_color, features, description, daily_rate_dzd, deposit_dzd, images, active';

/** Every car, retired ones last. */
export function listFleet() {
  return staffCall<FleetCar[]>(() =>
    supabase
      .from('cars')
      .select(FLEET_SELECT)
      .order('active', { ascending: false })
      .order('name')
      .limit(1000),
  );
}

export function addCar(row: CarForm & { slug: string }) {
  return staffCall<FleetCar>(() => supabase.from('cars').insert(row).select(FLEET_SELECT).single());
}

export function updateCar(id: string, row: Partial<CarForm> & { active?: boolean }) {
  return staffCall<FleetCar>(() =>
    supabase.from('cars').update(row).eq('id', id).select(FLEET_SELECT).single(),
  );
}
