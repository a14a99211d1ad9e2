/**
 * The places screen's calls (docs/opening-hours.md): every place with its hours, read from the
 * table; hours and closed dates written by the `staff_set_opening_hours` RPC (admins at aal2;
 * codes invalid_opening_hours, too_many_closed_dates, location_not_found, not_allowed).
 */
import type { Location } from '@/domain/rows';
import type { WeekHours } from '@/domain/opening-hours';
import { supabase } from '@/infra/supabase';

import { staffCall } from '@/features/staff/staff-call';

export type StaffPlace = Pick<
  Location,
  'id' | 'kind' | 'iata' | 'name' | 'delivery_fee_dzd' | 'active'
> & { opening_hours: WeekHours; closed_dates: string[] };

const PLACE_SELECT = 'id, kind, iata, name, delivery_fee_dzd, active, opening_hours, closed_dates';

/** Every place, in the catalogue's order. */
export function listPlaces() {
  return staffCall<StaffPlace[]>(() =>
    supabase.from('locations').select(PLACE_SELECT).order('sort_order').order('id').limit(1000),
  );
}

export function setOpeningHours(id: string, hours: WeekHours, closedDates: string[]) {
  return staffCall<StaffPlace>(() =>
    supabase.rpc('staff_set_opening_hours', {
      location_id: id,
      opening_hours: hours,
      closed_dates: closedDates,
    }),
  );
}
