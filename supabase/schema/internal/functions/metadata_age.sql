-- function internal.metadata_age(meta jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.metadata_age(meta jsonb)
 RETURNS integer
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v text := nullif(trim(meta ->> 'age'), '');
begin
  if v is null then
    return null;
  end if;
  if v !~ '^[0-9]{1,3}$' then
    raise exception using errcode = '23514', message = 'invalid_age',
      detail = 'age must be a whole number of years';
  end if;
  return v::integer;
end
$function$;

