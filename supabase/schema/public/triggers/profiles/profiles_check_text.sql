-- trigger profiles_check_text on public.profiles: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER profiles_check_text BEFORE INSERT OR UPDATE OF full_name, phone, address, age ON profiles FOR EACH ROW EXECUTE FUNCTION internal.check_profile_text();
