-- trigger bookings_refuse_rejected_files on public.bookings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER bookings_refuse_rejected_files BEFORE INSERT ON bookings FOR EACH ROW EXECUTE FUNCTION internal.require_checked_files();
