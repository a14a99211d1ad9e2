-- function internal.push_endpoint_allowed(endpoint text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.push_endpoint_allowed(endpoint text)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  m text[];
  url_host text;
  url_port integer;
begin
  if endpoint is null or char_length(endpoint) > 1024 then
    return false;
  end if;
  -- scheme://host[:port]/path, printable ASCII only; '@' never appears before the path.
  m := regexp_match(endpoint, '^(https?)://([A-Za-z0-9.-]+)(?::([0-9]{1,5}))?(/[!-~]*)$');
  if m is null then
    return false;
  end if;
  url_host := lower(m[2]);
  url_port := m[3]::integer;
  return exists (
    select 1 from internal.push_services s
     where s.scheme = lower(m[1])
       and (s.host = url_host
         or (left(s.host, 2) = '*.' and url_host like '%.' || substr(s.host, 3)))
       and coalesce(url_port, case lower(m[1]) when 'https' then 443 else 80 end)
         = coalesce(s.port, case s.scheme when 'https' then 443 else 80 end));
end
$function$;

