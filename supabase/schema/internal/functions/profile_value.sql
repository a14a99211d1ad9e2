-- function internal.profile_value(meta jsonb, field text, fallback text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.profile_value(meta jsonb, field text, fallback text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select case
    when internal.profile_field_problem(meta, field) is not null then fallback
    when field = 'phone' then internal.normalize_phone(meta ->> field)
    else trim(meta ->> field)
  end
$function$;

