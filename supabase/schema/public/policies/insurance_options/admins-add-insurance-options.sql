-- policy "Admins add insurance options" on public.insurance_options: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Admins add insurance options" on public.insurance_options
  as permissive for insert to authenticated
  with check (( SELECT is_admin() AS is_admin));
