-- Staff act only from a session that passed the second factor (docs/auth.md, "MFA (TOTP) and staff").
--
-- Every staff policy and staff RPC asks public.is_admin(), so the rule lives there, once: a staff
-- member whose token is not aal2 is treated as a customer. It reads the `aal` claim of the
-- verified JWT (Supabase's pattern for MFA in RLS), so it holds on any hosted plan and needs no
-- password-attempt hook: a stolen password alone opens no staff data. New staff RPCs that call
-- public.is_admin() inherit it.
create or replace function public.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select auth.jwt() ->> 'aal'), 'aal1') = 'aal2'
     and coalesce(
       (select p.role = 'admin' from public.profiles p where p.id = auth.uid()),
       false
     )
$$;

comment on function public.is_admin() is
  'True when the caller is staff (profile role admin) and their token is aal2 (MFA passed).';

revoke all on function public.is_admin() from public, anon, authenticated;
grant execute on function public.is_admin() to anon, authenticated, service_role;
