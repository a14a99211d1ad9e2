-- trigger users_sync_profile on auth.users: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER users_sync_profile AFTER UPDATE OF raw_user_meta_data ON auth.users FOR EACH ROW WHEN (old.raw_user_meta_data IS DISTINCT FROM new.raw_user_meta_data) EXECUTE FUNCTION internal.sync_profile_from_user();
