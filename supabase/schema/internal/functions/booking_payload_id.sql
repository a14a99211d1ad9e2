-- function internal.booking_payload_id(p jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.booking_payload_id(p jsonb)
 RETURNS uuid
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  found_id uuid;
begin
  if p is null or jsonb_typeof(p) <> 'object' then
    perform internal.fail('invalid_payload', 'the payload must be a JSON object');
  end if;
  found_id := internal.payload_uuid(p, 'id');
  if found_id is null then
    perform internal.fail('invalid_payload', 'id is required');
  end if;
  return found_id;
end
$function$;

