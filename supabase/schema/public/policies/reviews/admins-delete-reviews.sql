-- policy "Admins delete reviews" on public.reviews: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Admins delete reviews" on public.reviews
  as permissive for delete to authenticated
  using (( SELECT is_admin() AS is_admin));
