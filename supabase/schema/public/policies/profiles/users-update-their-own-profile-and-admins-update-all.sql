-- policy "Users update their own profile and admins update all" on public.profiles: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Users update their own profile and admins update all" on public.profiles
  as permissive for update to authenticated
  using (((id = ( SELECT auth.uid() AS uid)) OR ( SELECT is_admin() AS is_admin)))
  with check (((id = ( SELECT auth.uid() AS uid)) OR ( SELECT is_admin() AS is_admin)));
