-- function internal.normalize_phone(value text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.normalize_phone(value text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v text := regexp_replace(coalesce(value, ''), '[\s.()\-]', '', 'g');
begin
  if v ~ '^00[1-9]' then
    v := '+' || substr(v, 3);
  elsif v ~ '^0[1-9][0-9]{8}$' then
    v := '+213' || substr(v, 2);
  end if;
  if v ~ '^\+2130[1-9][0-9]{8}$' then
    v := '+213' || substr(v, 6);
  end if;
  if v ~ '^\+[1-9][0-9]{7,14}$' then
    return v;
  end if;
  return null;
end
$function$;

grant execute on function internal.normalize_phone(value text) to supabase_auth_admin;
