-- policy "Everyone reads the extras" on public.extras: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Everyone reads the extras" on public.extras
  as permissive for select to anon, authenticated
  using (true);
