-- function internal.is_open_at(hours jsonb, closed_dates date[], at timestamp with time zone): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.is_open_at(hours jsonb, closed_dates date[], at timestamp with time zone)
 RETURNS boolean
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select not (l.local::date = any (coalesce(closed_dates, '{}')))
     and coalesce(
       jsonb_typeof(hours -> extract(dow from l.local)::integer) = 'array'
       and extract(epoch from l.local::time)
         between (hours -> extract(dow from l.local)::integer ->> 0)::numeric * 60
             and (hours -> extract(dow from l.local)::integer ->> 1)::numeric * 60,
       false)
    from (select at at time zone 'Africa/Algiers' as local) l
$function$;

