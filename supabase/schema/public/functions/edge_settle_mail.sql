-- function public.edge_settle_mail(mail_id bigint, provider_id text, error text, permanent boolean): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.edge_settle_mail(mail_id bigint, provider_id text DEFAULT NULL::text, error text DEFAULT NULL::text, permanent boolean DEFAULT false)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if edge_settle_mail.error is null then
    update internal.mail_outbox o
       set sent_at = now(), claimed_until = null, last_error = null,
           provider_id = edge_settle_mail.provider_id
     where o.id = edge_settle_mail.mail_id and o.sent_at is null;
  else
    update internal.mail_outbox o
       set claimed_until = null,
           last_error = left(edge_settle_mail.error, 1000),
           next_attempt_at = now() + least(interval '1 hour', interval '1 minute' * 2 ^ (o.attempts - 1)),
           failed_at = case when edge_settle_mail.permanent or o.attempts >= 8 then now() end
     where o.id = edge_settle_mail.mail_id and o.sent_at is null;
  end if;
end
$function$;

grant execute on function public.edge_settle_mail(mail_id bigint, provider_id text, error text, permanent boolean) to service_role;
