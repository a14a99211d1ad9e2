-- trigger bookings_lock_car_holds on public.bookings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER bookings_lock_car_holds BEFORE INSERT OR UPDATE OF status, confirm_by, contact_confirmed_at, user_id, car_id, start_at, end_at ON bookings FOR EACH ROW EXECUTE FUNCTION internal.lock_car_holds();
