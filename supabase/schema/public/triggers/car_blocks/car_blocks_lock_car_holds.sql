-- trigger car_blocks_lock_car_holds on public.car_blocks: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER car_blocks_lock_car_holds BEFORE INSERT OR UPDATE OF car_id, start_at, end_at ON car_blocks FOR EACH ROW EXECUTE FUNCTION internal.lock_car_holds();
