-- function authz.booking_folder(name text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION authz.booking_folder(name text)
 RETURNS uuid
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select case
    when name ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[^/]+$'
      then split_part(name, '/', 1)::uuid
  end
$function$;

grant execute on function authz.booking_folder(name text) to anon;
grant execute on function authz.booking_folder(name text) to authenticated;
grant execute on function authz.booking_folder(name text) to service_role;
