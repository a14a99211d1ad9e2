-- function public.is_admin(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.is_admin()
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return coalesce((select auth.jwt() ->> 'aal'), 'aal1') = 'aal2'
     and coalesce(
       (select p.role = 'admin' from public.profiles p where p.id = auth.uid()),
       false
     );
end
$function$;

comment on function public.is_admin() is 'True when the caller is staff (profile role admin) and their token is aal2 (MFA passed).';
grant execute on function public.is_admin() to anon;
grant execute on function public.is_admin() to authenticated;
grant execute on function public.is_admin() to service_role;
