-- policy "Admins replace car pictures" on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Admins replace car pictures" on storage.objects
  as permissive for update to authenticated
  using (((bucket_id = 'cars'::text) AND ( SELECT is_admin() AS is_admin)))
  with check (((bucket_id = 'cars'::text) AND ( SELECT is_admin() AS is_admin)));
