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
         last_error = left(f.error, 1000),
         next_attempt_at = now() + least(interval '1 hour', interval '1 minute' * 2 ^ (f.tries - 1)),
         failed_at = case when f.permanent or f.tries >= 8 then now() end
    from (
      select r.mail_id, r.error, coalesce(r.permanent, false) as permanent,
             max(m.attempts) over (partition by coalesce(m.batch_key::text, m.id::text)) as tries
        from jsonb_to_recordset(results) as r(mail_id bigint, error text, permanent boolean)
        join internal.mail_outbox m on m.id = r.mail_id
       where r.error is not null
    ) f
   where o.id = f.mail_id and o.sent_at is null;
end
$function$;

grant execute on function public.edge_settle_mails(results jsonb) to service_role;
