-- trigger booking_handovers_check on public.booking_handovers: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER booking_handovers_check BEFORE INSERT OR UPDATE ON booking_handovers FOR EACH ROW EXECUTE FUNCTION internal.check_handover();
