-- function internal.email_key(value text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.email_key(value text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v text := lower(trim(coalesce(value, '')));
  local_part text := split_part(v, '@', 1);
  domain text := split_part(v, '@', 2);
begin
  if v = '' then
    return null;
  end if;
  local_part := split_part(local_part, '+', 1);
  if domain in ('gmail.com', 'googlemail.com') then
    local_part := replace(local_part, '.', '');
    domain := 'gmail.com';
  end if;
  return local_part || '@' || domain;
end
$function$;

grant execute on function internal.email_key(value text) to service_role;
