-- trigger settings_set_updated_at on public.settings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER settings_set_updated_at BEFORE INSERT OR UPDATE ON settings FOR EACH ROW EXECUTE FUNCTION internal.set_updated_at();
