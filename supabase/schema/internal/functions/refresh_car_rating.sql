-- function internal.refresh_car_rating(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.refresh_car_rating()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  ids uuid[];
begin
  if tg_op = 'INSERT' then
    ids := array[new.car_id];
  elsif tg_op = 'DELETE' then
    ids := array[old.car_id];
  else
    ids := array[old.car_id, new.car_id];
  end if;
  update public.cars c
     set rating_count = s.n,
         rating_avg = s.avg
    from (
      select i.id, count(r.id)::integer as n, round(avg(r.rating), 2) as avg
        from unnest(ids) as i(id)
        left join public.reviews r on r.car_id = i.id
       group by i.id
    ) s
   where c.id = s.id;
  return null;
end
$function$;

