-- function authz.check_request(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION authz.check_request()
 RETURNS void
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  method text := current_setting('request.method', true);
  path text := current_setting('request.path', true);
  rpc_name text;
begin
  if method not in ('GET', 'HEAD') or path is null or path not like '/rpc/%' then
    return;
  end if;
  rpc_name := split_part(substr(path, 6), '/', 1);
  if exists (
    select from pg_catalog.pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and p.proname = rpc_name
       and p.provolatile = 'v'
  ) then
    raise sqlstate 'PGRST' using
      message = json_build_object('code', 'PT405', 'message', 'method_not_allowed',
        'details', rpc_name || ' changes data: call it with POST')::text,
      detail = '{"status": 405, "headers": {"Allow": "POST"}}';
  end if;
end
$function$;

grant execute on function authz.check_request() to anon;
grant execute on function authz.check_request() to authenticated;
grant execute on function authz.check_request() to service_role;
