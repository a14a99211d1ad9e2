-- function internal.fail_hold_limit(code text, max_allowed integer, scope text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.fail_hold_limit(code text, max_allowed integer, scope text)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  perform internal.fail(code, json_build_object(
    'limit', max_allowed, 'retry_after', null, 'scope', scope)::text);
end
$function$;

