-- policy "Admins read every blocked period" on public.car_blocks: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Admins read every blocked period" on public.car_blocks
  as permissive for select to authenticated
  using (( SELECT is_admin() AS is_admin));
