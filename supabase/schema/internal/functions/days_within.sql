-- function internal.days_within(starts timestamp with time zone, ends timestamp with time zone, horizon_days integer): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.days_within(starts timestamp with time zone, ends timestamp with time zone, horizon_days integer)
 RETURNS numeric
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  return greatest(0, extract(epoch from (
    least(ends, now() + make_interval(days => horizon_days)) - greatest(starts, now())
  )))::numeric / 86400;
end
$function$;

