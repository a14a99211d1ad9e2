-- function public.edge_settle_push(push_id bigint, outcome text, status_code integer, error text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.edge_settle_push(push_id bigint, outcome text, status_code integer DEFAULT NULL::integer, error text DEFAULT NULL::text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  o internal.push_outbox;
begin
  if outcome not in ('sent', 'retry', 'failed', 'gone') then
    perform internal.fail('invalid_payload', 'outcome: sent, retry, failed or gone');
  end if;
  select * into o from internal.push_outbox x where x.id = push_id for update;
  if not found or o.sent_at is not null then
    return;
  end if;
  insert into internal.push_attempts (push_id, attempt, status_code, outcome, error)
  values (o.id, o.attempts, edge_settle_push.status_code, outcome, left(edge_settle_push.error, 1000));
  if outcome = 'sent' then
    update internal.push_outbox x
       set sent_at = now(), claimed_until = null, status_code = edge_settle_push.status_code,
           last_error = null
     where x.id = o.id;
  elsif outcome = 'retry' and o.attempts < 8 then
    update internal.push_outbox x
       set claimed_until = null, status_code = edge_settle_push.status_code,
           last_error = left(edge_settle_push.error, 1000),
           next_attempt_at = now() + least(interval '1 hour', interval '1 minute' * 2 ^ (o.attempts - 1))
     where x.id = o.id;
  else
    update internal.push_outbox x
       set claimed_until = null, failed_at = now(), status_code = edge_settle_push.status_code,
           last_error = left(edge_settle_push.error, 1000)
     where x.id = o.id;
    if outcome = 'gone' then
      delete from public.push_subscriptions s where s.endpoint = o.endpoint;
    end if;
  end if;
end
$function$;

grant execute on function public.edge_settle_push(push_id bigint, outcome text, status_code integer, error text) to service_role;
