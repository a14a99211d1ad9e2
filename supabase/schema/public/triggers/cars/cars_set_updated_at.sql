-- trigger cars_set_updated_at on public.cars: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER cars_set_updated_at BEFORE INSERT OR UPDATE ON cars FOR EACH ROW EXECUTE FUNCTION internal.set_updated_at();
