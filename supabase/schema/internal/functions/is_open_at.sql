-- function internal.is_open_at(hours jsonb, closed_dates date[], at timestamp with time zone): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.is_open_at(hours jsonb, closed_dates date[], at timestamp with time zone)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
declare
  in_algiers timestamp := is_open_at.at at time zone 'Africa/Algiers';
  open_close jsonb := hours -> extract(dow from in_algiers)::integer;
begin
  return not (in_algiers::date = any (coalesce(closed_dates, '{}')))
     and coalesce(
       jsonb_typeof(open_close) = 'array'
       and extract(epoch from in_algiers::time)
         between (open_close ->> 0)::numeric * 60 and (open_close ->> 1)::numeric * 60,
       false);
end
$function$;

