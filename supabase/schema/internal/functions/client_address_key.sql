-- function internal.client_address_key(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.client_address_key()
 RETURNS text
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  a inet := internal.client_address();
begin
  if a is null then
    return null;
  end if;
  if family(a) = 6 and host(a) ~* '^::ffff:[0-9]{1,3}(\.[0-9]{1,3}){3}$' then
    return substr(host(a), 8);
  end if;
  if family(a) = 6 then
    return network(set_masklen(a, 64))::text;
  end if;
  return host(a);
end
$function$;

