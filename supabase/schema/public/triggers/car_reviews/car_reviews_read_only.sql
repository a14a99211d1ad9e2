-- trigger car_reviews_read_only on public.car_reviews: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER car_reviews_read_only INSTEAD OF INSERT OR DELETE OR UPDATE ON car_reviews FOR EACH ROW EXECUTE FUNCTION internal.refuse_view_write();
