-- function public.edge_release_mail(sender uuid): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.edge_release_mail(sender uuid DEFAULT NULL::uuid)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  update internal.mail_sender s
     set busy_until = least(s.busy_until, clock_timestamp())
   where sender is null or s.holder = sender;
  if found and exists (
    select from internal.mail_outbox x
     where x.sent_at is null and x.failed_at is null and x.next_attempt_at <= now()
       and (x.claimed_until is null or x.claimed_until < now())
  ) then
    perform internal.invoke_edge_function('send-mail',
      jsonb_build_object('type', 'CONTINUE', 'schema', 'internal', 'table', 'mail_outbox'));
  end if;
end
$function$;

grant execute on function public.edge_release_mail(sender uuid) to service_role;
