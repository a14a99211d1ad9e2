-- function authz.may_upload_booking_file(name text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION authz.may_upload_booking_file(name text)
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select authz.booking_folder(name) is not null
    and not exists (
      select 1 from public.bookings b
       where b.id = authz.booking_folder(name)
         and (auth.uid() is null or b.user_id is distinct from auth.uid() or b.status <> 'pending')
    )
$function$;

grant execute on function authz.may_upload_booking_file(name text) to anon;
grant execute on function authz.may_upload_booking_file(name text) to authenticated;
grant execute on function authz.may_upload_booking_file(name text) to service_role;
