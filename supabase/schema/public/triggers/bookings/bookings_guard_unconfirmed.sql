-- trigger bookings_guard_unconfirmed on public.bookings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER bookings_guard_unconfirmed BEFORE UPDATE OF status ON bookings FOR EACH ROW WHEN (old.status = 'pending'::text AND old.user_id IS NULL) EXECUTE FUNCTION internal.guard_unconfirmed_booking();
