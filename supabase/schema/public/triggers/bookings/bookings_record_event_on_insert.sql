-- trigger bookings_record_event_on_insert on public.bookings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER bookings_record_event_on_insert AFTER INSERT ON bookings FOR EACH ROW EXECUTE FUNCTION internal.record_booking_event();
