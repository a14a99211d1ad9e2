-- trigger handover_photos_check on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER handover_photos_check AFTER INSERT ON storage.objects FOR EACH ROW WHEN (new.bucket_id = 'handovers'::text) EXECUTE FUNCTION internal.booking_file_webhook();
