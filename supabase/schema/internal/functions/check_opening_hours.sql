-- function internal.check_opening_hours(d internal.booking_draft): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.check_opening_hours(d internal.booking_draft)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  place public.locations;
begin
  select l.* into place from public.locations l where l.id = d.pickup_location_id;
  if found and not internal.is_open_at(place.opening_hours, place.closed_dates, d.start_at) then
    perform internal.fail('pickup_outside_hours', json_build_object(
      'location_id', place.id,
      'at', to_char(d.start_at at time zone 'Africa/Algiers', 'YYYY-MM-DD"T"HH24:MI:SS'))::text);
  end if;
  select l.* into place from public.locations l where l.id = d.dropoff_location_id;
  if found and not internal.is_open_at(place.opening_hours, place.closed_dates, d.end_at) then
    perform internal.fail('return_outside_hours', json_build_object(
      'location_id', place.id,
      'at', to_char(d.end_at at time zone 'Africa/Algiers', 'YYYY-MM-DD"T"HH24:MI:SS'))::text);
  end if;
end
$function$;

