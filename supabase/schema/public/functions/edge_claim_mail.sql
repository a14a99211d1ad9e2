-- function public.edge_claim_mail(batch integer, lease_seconds integer): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.edge_claim_mail(batch integer DEFAULT 20, lease_seconds integer DEFAULT 120)
 RETURNS SETOF jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return query
    update internal.mail_outbox o
       set claimed_until = now() + make_interval(secs => greatest(lease_seconds, 10)),
           attempts = o.attempts + 1
     where o.id in (
       select x.id from internal.mail_outbox x
        where x.sent_at is null and x.failed_at is null and x.next_attempt_at <= now()
          and (x.claimed_until is null or x.claimed_until < now())
        order by x.created_at, x.id
        limit least(greatest(batch, 1), 100)
        for update skip locked)
    returning to_jsonb(o);
end
$function$;

grant execute on function public.edge_claim_mail(batch integer, lease_seconds integer) to service_role;
