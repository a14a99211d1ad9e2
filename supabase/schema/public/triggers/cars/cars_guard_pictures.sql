-- trigger cars_guard_pictures on public.cars: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER cars_guard_pictures BEFORE INSERT OR UPDATE OF images ON cars FOR EACH ROW EXECUTE FUNCTION internal.guard_car_pictures();
