-- function public.edge_claim_push(batch integer, lease_seconds integer): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.edge_claim_push(batch integer DEFAULT 20, lease_seconds integer DEFAULT 60)
 RETURNS SETOF jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  update internal.push_outbox o
     set failed_at = now(), last_error = left(coalesce(o.last_error || '; ', '') || 'ttl expired', 1000)
   where o.sent_at is null and o.failed_at is null
     and o.created_at + make_interval(secs => o.ttl_seconds) < now();
  delete from internal.push_outbox o
   where (o.sent_at is not null or o.failed_at is not null)
     and o.created_at < now() - interval '7 days';
  return query
    update internal.push_outbox o
       set claimed_until = now() + make_interval(secs => greatest(lease_seconds, 10)),
           attempts = o.attempts + 1
     where o.id in (
       select x.id from internal.push_outbox x
        where x.sent_at is null and x.failed_at is null and x.next_attempt_at <= now()
          and (x.claimed_until is null or x.claimed_until < now())
        order by x.created_at, x.id
        limit least(greatest(batch, 1), 100)
        for update skip locked)
    returning jsonb_build_object(
      'id', o.id,
      'endpoint', o.endpoint,
      'p256dh', o.p256dh,
      'auth', o.auth,
      'payload', o.payload,
      'topic', o.topic,
      'urgency', o.urgency,
      -- What is left of the TTL: the push service keeps it no longer than the message is useful.
      'ttl', greatest(0, o.ttl_seconds - floor(extract(epoch from now() - o.created_at))::integer),
      'attempts', o.attempts);
end
$function$;

grant execute on function public.edge_claim_push(batch integer, lease_seconds integer) to service_role;
