-- function internal.mail_outbox_webhook(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.mail_outbox_webhook()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  -- A sender is running: it takes this statement's rows at its next claim, or at its last.
  if exists (select from internal.mail_sender s where s.busy_until > clock_timestamp()) then
    return null;
  end if;
  perform internal.invoke_edge_function('send-mail',
    jsonb_build_object('type', 'INSERT', 'schema', 'internal', 'table', 'mail_outbox'));
  return null;
end
$function$;

