-- trigger bookings_require_checked_files on public.bookings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER bookings_require_checked_files BEFORE UPDATE OF status ON bookings FOR EACH ROW WHEN (old.status = 'pending'::text AND new.status = 'reserved'::text) EXECUTE FUNCTION internal.require_checked_files();
