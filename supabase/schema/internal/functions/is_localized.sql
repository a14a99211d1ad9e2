-- function internal.is_localized(value jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.is_localized(value jsonb)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select jsonb_typeof(value) = 'object'
    and jsonb_typeof(value -> 'fr') = 'string' and length(trim(value ->> 'fr')) > 0
    and jsonb_typeof(value -> 'en') = 'string' and length(trim(value ->> 'en')) > 0
    and jsonb_typeof(value -> 'ar') = 'string' and length(trim(value ->> 'ar')) > 0
$function$;

grant execute on function internal.is_localized(value jsonb) to anon;
grant execute on function internal.is_localized(value jsonb) to authenticated;
grant execute on function internal.is_localized(value jsonb) to service_role;
