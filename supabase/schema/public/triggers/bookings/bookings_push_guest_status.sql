-- trigger bookings_push_guest_status on public.bookings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER bookings_push_guest_status AFTER UPDATE OF status ON bookings FOR EACH ROW WHEN (new.user_id IS NULL AND old.status IS DISTINCT FROM new.status) EXECUTE FUNCTION internal.push_on_guest_status_changed();
