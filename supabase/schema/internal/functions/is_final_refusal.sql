-- function internal.is_final_refusal(code text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.is_final_refusal(code text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select coalesce(code in (
    'car_unavailable', 'car_not_found', 'location_not_found', 'unknown_extra',
    'unknown_insurance', 'dates_in_past', 'booking_too_far_ahead', 'licence_required',
    'flight_document_required'), false)
$function$;

grant execute on function internal.is_final_refusal(code text) to service_role;
