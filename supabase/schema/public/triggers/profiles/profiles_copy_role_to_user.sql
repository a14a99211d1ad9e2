-- trigger profiles_copy_role_to_user on public.profiles: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER profiles_copy_role_to_user AFTER INSERT OR UPDATE OF role ON profiles FOR EACH ROW EXECUTE FUNCTION internal.copy_role_to_user();
