-- function internal.trimmed_name(value jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.trimmed_name(value jsonb)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE STRICT
 SET search_path TO ''
AS $function$
  select jsonb_build_object('fr', btrim(value ->> 'fr'), 'en', btrim(value ->> 'en'),
    'ar', btrim(value ->> 'ar'))
$function$;

