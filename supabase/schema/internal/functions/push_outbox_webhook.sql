-- function internal.push_outbox_webhook(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.push_outbox_webhook()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform internal.invoke_edge_function('push-send',
    jsonb_build_object('type', 'INSERT', 'schema', 'internal', 'table', 'push_outbox'));
  return null;
end
$function$;

