-- function internal.client_address(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.client_address()
 RETURNS inet
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  headers jsonb;
  forwarded text[];
  found_address inet;
begin
  begin
    headers := nullif(current_setting('request.headers', true), '')::jsonb;
  exception when others then
    return null;
  end;
  if headers is null or jsonb_typeof(headers) <> 'object' then
    return null;
  end if;
  if jsonb_typeof(headers -> 'cf-connecting-ip') = 'string' then
    found_address := internal.parse_address(headers ->> 'cf-connecting-ip');
    if found_address is not null then
      return found_address;
    end if;
  end if;
  if jsonb_typeof(headers -> 'x-forwarded-for') = 'string' then
    forwarded := string_to_array(headers ->> 'x-forwarded-for', ',');
    return internal.parse_address(forwarded[cardinality(forwarded)]);
  end if;
  return null;
end
$function$;

