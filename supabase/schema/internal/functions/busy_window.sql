-- function internal.busy_window(window_start timestamp with time zone, window_end timestamp with time zone): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.busy_window(window_start timestamp with time zone, window_end timestamp with time zone)
 RETURNS tstzrange
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  if window_start is null or window_end is null or window_end <= window_start then
    perform internal.fail('invalid_dates', '"to" must be after "from"');
  end if;
  if window_end - window_start > interval '800 days' then
    perform internal.fail('invalid_dates', 'the window is at most 800 days');
  end if;
  return tstzrange(window_start, window_end, '[)');
end
$function$;

