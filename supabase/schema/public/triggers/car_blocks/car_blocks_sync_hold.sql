-- trigger car_blocks_sync_hold on public.car_blocks: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER car_blocks_sync_hold AFTER INSERT OR UPDATE OF car_id, start_at, end_at ON car_blocks FOR EACH ROW EXECUTE FUNCTION internal.sync_block_hold();
