-- trigger booking_files_keep_live on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER booking_files_keep_live BEFORE DELETE ON storage.objects FOR EACH ROW WHEN (old.bucket_id = ANY (ARRAY['licenses'::text, 'flight-documents'::text])) EXECUTE FUNCTION internal.keep_live_booking_files();
