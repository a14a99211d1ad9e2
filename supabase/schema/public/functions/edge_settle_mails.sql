-- function public.edge_settle_mails(results jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.edge_settle_mails(results jsonb)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if jsonb_typeof(results) is distinct from 'array' then
    raise exception 'results must be an array' using errcode = '22023';
  end if;
  update internal.mail_outbox o
     set sent_at = now(), claimed_until = null, last_error = null, provider_id = r.provider_id
    from jsonb_to_recordset(results) as r(mail_id bigint, provider_id text, error text)
   where o.id = r.mail_id and r.error is null and o.sent_at is null;
  update internal.mail_outbox o
     set claimed_until = null,
         last_error = left(r.error, 1000),
         next_attempt_at = now() + least(interval '1 hour', interval '1 minute' * 2 ^ (o.attempts - 1)),
         failed_at = case when coalesce(r.permanent, false) or o.attempts >= 8 then now() end
    from jsonb_to_recordset(results) as r(mail_id bigint, error text, permanent boolean)
   where o.id = r.mail_id and r.error is not null and o.sent_at is null;
end
$function$;

grant execute on function public.edge_settle_mails(results jsonb) to service_role;
