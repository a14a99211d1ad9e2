-- policy "Everyone reads car pictures" on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Everyone reads car pictures" on storage.objects
  as permissive for select to anon, authenticated
  using ((bucket_id = 'cars'::text));
