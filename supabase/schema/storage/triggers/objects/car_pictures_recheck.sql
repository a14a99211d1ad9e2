-- trigger car_pictures_recheck on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER car_pictures_recheck AFTER UPDATE ON storage.objects FOR EACH ROW WHEN (new.bucket_id = 'cars'::text AND (old.version IS DISTINCT FROM new.version OR (old.metadata ->> 'eTag'::text) IS DISTINCT FROM (new.metadata ->> 'eTag'::text))) EXECUTE FUNCTION internal.booking_file_webhook();
