-- function internal.fail_limit(code text, max_allowed integer, retry_after timestamp with time zone): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.fail_limit(code text, max_allowed integer, retry_after timestamp with time zone)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  perform internal.fail(code, json_build_object(
    'limit', max_allowed,
    'retry_after', to_char(retry_after at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
  )::text);
end
$function$;

