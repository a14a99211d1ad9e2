-- trigger bookings_record_source on public.bookings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER bookings_record_source AFTER INSERT ON bookings FOR EACH ROW EXECUTE FUNCTION internal.record_booking_source();
