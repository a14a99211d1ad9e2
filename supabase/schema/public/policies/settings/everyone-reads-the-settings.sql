-- policy "Everyone reads the settings" on public.settings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Everyone reads the settings" on public.settings
  as permissive for select to anon, authenticated
  using (true);
