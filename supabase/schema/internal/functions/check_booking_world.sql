-- function internal.check_booking_world(d internal.booking_draft): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.check_booking_world(d internal.booking_draft)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  horizon integer := coalesce(
    (select s.booking_horizon_days from public.settings s where s.id = 1), 365);
  price jsonb;
begin
  if d.start_at <= now() then
    perform internal.fail('dates_in_past', 'start_at must be in the future');
  end if;
  if d.start_at > now() + make_interval(days => horizon) then
    perform internal.fail('booking_too_far_ahead', json_build_object(
      'max_days', horizon,
      'latest_start', to_char((now() + make_interval(days => horizon)) at time zone 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS"Z"')
    )::text);
  end if;

  price := internal.price_booking(d.car_id, d.start_at, d.end_at, d.pickup_location_id,
    d.dropoff_location_id, d.driver_option, d.extras, d.insurance);

  perform internal.check_opening_hours(d);

  if not internal.booking_file_exists('licenses', d.id, d.license_path) then
    perform internal.fail('licence_required', coalesce(d.license_path, 'license_path is required'));
  end if;
  if (d.from_abroad or d.flight_document_path is not null)
     and not internal.booking_file_exists('flight-documents', d.id, d.flight_document_path) then
    perform internal.fail('flight_document_required',
      coalesce(d.flight_document_path, 'flight_document_path is required'));
  end if;
  return price;
end
$function$;

