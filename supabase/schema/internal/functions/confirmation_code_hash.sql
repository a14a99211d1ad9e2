-- function internal.confirmation_code_hash(booking_id uuid, code text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.confirmation_code_hash(booking_id uuid, code text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  return encode(extensions.digest(booking_id::text || ':' || code, 'sha256'), 'hex');
end
$function$;

