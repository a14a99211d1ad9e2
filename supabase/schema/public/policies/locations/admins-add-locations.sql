-- policy "Admins add locations" on public.locations: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Admins add locations" on public.locations
  as permissive for insert to authenticated
  with check (( SELECT is_admin() AS is_admin));
