-- trigger insurance_options_set_updated_at on public.insurance_options: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER insurance_options_set_updated_at BEFORE INSERT OR UPDATE ON insurance_options FOR EACH ROW EXECUTE FUNCTION internal.set_updated_at();
