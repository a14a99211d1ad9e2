-- policy "Customers upload files for a new or pending booking of theirs" on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Customers upload files for a new or pending booking of theirs" on storage.objects
  as permissive for insert to authenticated
  with check (((bucket_id = ANY (ARRAY['licenses'::text, 'flight-documents'::text])) AND (( SELECT is_admin() AS is_admin) OR authz.may_upload_booking_file(name))));
