-- policy "Admins delete booking files" on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Admins delete booking files" on storage.objects
  as permissive for delete to authenticated
  using (((bucket_id = ANY (ARRAY['licenses'::text, 'flight-documents'::text])) AND ( SELECT is_admin() AS is_admin)));
