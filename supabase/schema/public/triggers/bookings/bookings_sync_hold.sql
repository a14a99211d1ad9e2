-- trigger bookings_sync_hold on public.bookings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER bookings_sync_hold AFTER INSERT OR UPDATE OF status, confirm_by, contact_confirmed_at, car_id, start_at, end_at ON bookings FOR EACH ROW EXECUTE FUNCTION internal.sync_booking_hold();
