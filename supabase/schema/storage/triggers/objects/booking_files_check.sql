-- trigger booking_files_check on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER booking_files_check AFTER INSERT ON storage.objects FOR EACH ROW WHEN (new.bucket_id = ANY (ARRAY['licenses'::text, 'flight-documents'::text])) EXECUTE FUNCTION internal.booking_file_webhook();
