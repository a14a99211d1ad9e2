-- policy "Users read their own profile and admins read all" on public.profiles: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Users read their own profile and admins read all" on public.profiles
  as permissive for select to authenticated
  using (((id = ( SELECT auth.uid() AS uid)) OR ( SELECT is_admin() AS is_admin)));
