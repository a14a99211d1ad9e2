-- trigger profiles_keep_fields on public.profiles: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER profiles_keep_fields BEFORE UPDATE OF full_name, phone, address, age ON profiles FOR EACH ROW EXECUTE FUNCTION internal.keep_profile_fields();
