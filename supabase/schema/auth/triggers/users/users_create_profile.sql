-- trigger users_create_profile on auth.users: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER users_create_profile AFTER INSERT ON auth.users FOR EACH ROW EXECUTE FUNCTION internal.create_profile_for_user();
