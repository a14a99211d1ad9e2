-- function authz.car_reviews(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION authz.car_reviews()
 RETURNS TABLE(id uuid, car_id uuid, rating smallint, comment text, created_at timestamp with time zone, author_name text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select
    r.id,
    r.car_id,
    r.rating,
    r.comment,
    r.created_at,
    trim(
      split_part(trim(p.full_name), ' ', 1)
      || case
        when position(' ' in trim(p.full_name)) > 0
          then ' ' || upper(left(regexp_replace(trim(p.full_name), '^.*\s', ''), 1)) || '.'
        else ''
      end
    )
  from public.reviews r
  join public.profiles p on p.id = r.user_id
$function$;

grant execute on function authz.car_reviews() to anon;
grant execute on function authz.car_reviews() to authenticated;
grant execute on function authz.car_reviews() to service_role;
