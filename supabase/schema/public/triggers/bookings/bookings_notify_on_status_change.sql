-- trigger bookings_notify_on_status_change on public.bookings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER bookings_notify_on_status_change AFTER UPDATE OF status ON bookings FOR EACH ROW WHEN (old.status IS DISTINCT FROM new.status) EXECUTE FUNCTION internal.on_booking_status_changed();
