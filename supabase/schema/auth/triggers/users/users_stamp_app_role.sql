-- trigger users_stamp_app_role on auth.users: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER users_stamp_app_role BEFORE INSERT OR UPDATE ON auth.users FOR EACH ROW EXECUTE FUNCTION internal.stamp_app_role();
