/**
 * The fleet screen's calls (docs/fleet.md, "Fleet"): admins insert and update `cars` directly
 * (their RLS policies; the table's CHECKs validate every field); nobody deletes a car: retiring
 * sets `active = false`, and the catalogue delta carries it to customers' devices. Pictures go
 * to the `cars` bucket and are saved through staff_set_car_pictures (the only way to change them).
 */
import { carPictureEntry, carPictureObject, pictureUrl } from '@/domain/car-pictures';
import { SUPABASE_URL } from '@/infra/api-config';
import { removePictures, uploadPicture, type PreparedPicture } from '@/infra/picture-upload';
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

/** A picture of `carId` uploaded to the `cars` bucket; its stored entry (docs/fleet.md, "Pictures"). */
export async function uploadCarPicture(
  carId: string,
  picture: PreparedPicture,
): Promise<{ ok: true; entry: string } | { ok: false; code: string }> {
  const objectName = `${carId}/${crypto.randomUUID()}.${picture.extension}`;
  const result = await uploadPicture('cars', objectName, picture);
  if (!result.ok) return result;
  return { ok: true, entry: carPictureEntry(objectName) };
}

/** Saves the car's pictures in this order (the first is the cover); the stored list. */
export function saveCarPictures(carId: string, pictures: string[]) {
  return staffCall<{ id: string; images: string[] }>(() =>
    supabase.rpc('staff_set_car_pictures', { car_id: carId, pictures }),
  );
}

/** Removes the uploaded files of pictures no car shows any more (best effort). */
export function forgetCarPictures(entries: string[]): Promise<void> {
  const names = entries.map(carPictureObject).filter((n): n is string => !!n);
  return removePictures('cars', names);
}

/** The URL to show a stored picture entry with. */
export function carPictureSrc(entry: string): string {
  return pictureUrl(entry, SUPABASE_URL);
}
