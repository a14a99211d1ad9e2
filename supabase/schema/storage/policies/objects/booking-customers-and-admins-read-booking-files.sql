-- policy "Booking customers and admins read booking files" on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Booking customers and admins read booking files" on storage.objects
  as permissive for select to authenticated
  using (((bucket_id = ANY (ARRAY['licenses'::text, 'flight-documents'::text])) AND (( SELECT is_admin() AS is_admin) OR authz.owns_booking_folder(name))));
