-- function internal.booking_draft_hash(d internal.booking_draft, uid uuid): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.booking_draft_hash(d internal.booking_draft, uid uuid)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  return encode(extensions.digest(jsonb_build_object(
    'owner', uid,
    'reference', d.reference,
    'car_id', d.car_id,
    'start_at', to_char(d.start_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    'end_at', to_char(d.end_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    'pickup_location_id', d.pickup_location_id,
    'dropoff_location_id', d.dropoff_location_id,
    'driver_option', d.driver_option,
    'license_path', d.license_path,
    'flight_document_path', d.flight_document_path,
    'from_abroad', d.from_abroad,
    'additional_requests', d.additional_requests,
    'extras', to_jsonb(array(select distinct e from unnest(d.extras) e order by 1)),
    'insurance', to_jsonb(array(select distinct e from unnest(d.insurance) e order by 1)),
    'guest_name', case when uid is null then d.guest_name end,
    'guest_phone', case when uid is null then d.guest_phone end,
    'guest_email', case when uid is null then lower(d.guest_email) end,
    'locale', d.locale
  )::text, 'sha256'), 'hex');
end
$function$;

