-- policy "Guests upload one file per bucket for a booking not made yet, w" on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Guests upload one file per bucket for a booking not made yet, w" on storage.objects
  as permissive for insert to anon
  with check (((bucket_id = ANY (ARRAY['licenses'::text, 'flight-documents'::text])) AND authz.may_upload_booking_file(name) AND authz.may_add_guest_file(bucket_id, name, metadata)));
