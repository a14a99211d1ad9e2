-- function internal.object_size(metadata jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.object_size(metadata jsonb)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select case when metadata ->> 'size' ~ '^[0-9]{1,15}$' then (metadata ->> 'size')::bigint else 0 end
$function$;

