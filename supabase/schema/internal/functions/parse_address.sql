-- function internal.parse_address(value text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.parse_address(value text)
 RETURNS inet
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v text := trim(coalesce(value, ''));
begin
  if v !~ '^[0-9]{1,3}(\.[0-9]{1,3}){3}$' and v !~* '^[0-9a-f:.]*:[0-9a-f:.]*$' then
    return null;
  end if;
  if char_length(v) > 45 then
    return null;
  end if;
  begin
    return host(v::inet)::inet;
  exception when others then
    return null;
  end;
end
$function$;

