-- policy "Admins delete car pictures" on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Admins delete car pictures" on storage.objects
  as permissive for delete to authenticated
  using (((bucket_id = 'cars'::text) AND ( SELECT is_admin() AS is_admin)));
