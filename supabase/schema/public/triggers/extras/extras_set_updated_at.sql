-- trigger extras_set_updated_at on public.extras: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER extras_set_updated_at BEFORE INSERT OR UPDATE ON extras FOR EACH ROW EXECUTE FUNCTION internal.set_updated_at();
