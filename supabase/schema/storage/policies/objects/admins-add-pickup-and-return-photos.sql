-- policy "Admins add pickup and return photos" on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Admins add pickup and return photos" on storage.objects
  as permissive for insert to authenticated
  with check (((bucket_id = 'handovers'::text) AND ( SELECT is_admin() AS is_admin) AND (authz.booking_folder(name) IS NOT NULL)));
