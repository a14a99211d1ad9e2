-- policy "Admins and the booking's customer read pickup and return photos" on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Admins and the booking's customer read pickup and return photos" on storage.objects
  as permissive for select to authenticated
  using (((bucket_id = 'handovers'::text) AND (( SELECT is_admin() AS is_admin) OR authz.owns_booking_folder(name))));
