-- function internal.booking_request_hash(p jsonb, uid uuid): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.booking_request_hash(p jsonb, uid uuid)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  starts timestamptz := internal.payload_instant(p, 'start_at');
  ends timestamptz := internal.payload_instant(p, 'end_at');
  phone text := nullif(trim(internal.payload_text(p, 'guest_phone')), '');
begin
  return encode(extensions.digest(jsonb_build_object(
    'owner', uid,
    'reference', internal.payload_text(p, 'reference'),
    'car_id', internal.payload_uuid(p, 'car_id'),
    'start_at', to_char(starts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    'end_at', to_char(ends at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    'pickup_location_id', internal.payload_uuid(p, 'pickup_location_id'),
    'dropoff_location_id', internal.payload_uuid(p, 'dropoff_location_id'),
    'driver_option', internal.payload_text(p, 'driver_option'),
    'license_path', internal.payload_text(p, 'license_path'),
    'flight_document_path', internal.payload_text(p, 'flight_document_path'),
    'from_abroad', internal.payload_boolean(p, 'from_abroad', false),
    'additional_requests', nullif(trim(internal.payload_text(p, 'additional_requests')), ''),
    'extras', to_jsonb(array(
      select distinct e from unnest(internal.payload_codes(p, 'extras')) e order by 1)),
    'insurance', to_jsonb(array(
      select distinct e
        from unnest(array['civil_liability'] || internal.payload_codes(p, 'insurance')) e
       order by 1)),
    'guest_name', case when uid is null
      then nullif(trim(internal.payload_text(p, 'guest_name')), '') end,
    'guest_phone', case when uid is null
      then coalesce(internal.normalize_phone(phone), phone) end,
    'guest_email', case when uid is null
      then lower(nullif(trim(internal.payload_text(p, 'guest_email')), '')) end,
    'locale', coalesce(internal.payload_text(p, 'locale'), 'fr')
  )::text, 'sha256'), 'hex');
end
$function$;

