-- view public.car_reviews: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create or replace view public.car_reviews with (security_barrier=true, security_invoker=true) as
 SELECT r.id,
    r.car_id,
    r.rating,
    r.comment,
    r.created_at,
    r.author_name
   FROM authz.car_reviews() r(id, car_id, rating, comment, created_at, author_name);

grant select on table public.car_reviews to anon;
grant select on table public.car_reviews to authenticated;
grant delete, insert, references, select, trigger, truncate, update on table public.car_reviews to service_role;
