-- policy "The auth service counts failed passwords" on internal.password_failures: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "The auth service counts failed passwords" on internal.password_failures
  as permissive for all to supabase_auth_admin
  using (true)
  with check (true);
