-- trigger objects_record_guest_upload on storage.objects: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER objects_record_guest_upload AFTER INSERT ON storage.objects FOR EACH ROW EXECUTE FUNCTION internal.record_guest_upload();
