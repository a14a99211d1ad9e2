-- function authz.owns_booking_folder(name text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION authz.owns_booking_folder(name text)
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select exists (
    select 1 from public.bookings b
     where b.id = authz.booking_folder(name)
       and b.user_id = auth.uid()
  )
$function$;

grant execute on function authz.owns_booking_folder(name text) to anon;
grant execute on function authz.owns_booking_folder(name text) to authenticated;
grant execute on function authz.owns_booking_folder(name text) to service_role;
