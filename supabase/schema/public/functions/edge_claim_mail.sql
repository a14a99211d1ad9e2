-- function public.edge_claim_mail(batch integer, lease_seconds integer, hold boolean, after_writers boolean, sender uuid): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.edge_claim_mail(batch integer DEFAULT 20, lease_seconds integer DEFAULT 120, hold boolean DEFAULT false, after_writers boolean DEFAULT false, sender uuid DEFAULT NULL::uuid)
 RETURNS SETOF jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  writers xid[];
  give_up timestamptz := clock_timestamp() + interval '5 seconds';
  leased timestamptz := now() + make_interval(secs => greatest(lease_seconds, 10));
  retried uuid;
  ids bigint[];
  yielded boolean;
begin
  if after_writers then
    -- The transactions writing now: each holds the lock of its own transaction id. (A snapshot
    -- would not do: one lists no transaction that started after the last to end.)
    select array_agg(l.transactionid) into writers
      from pg_catalog.pg_locks l
     where l.locktype = 'transactionid' and l.mode = 'ExclusiveLock' and l.granted;
    while writers is not null and clock_timestamp() < give_up and exists (
      select from pg_catalog.pg_locks l
       where l.locktype = 'transactionid' and l.mode = 'ExclusiveLock' and l.granted
         and l.transactionid = any (writers)
    ) loop
      perform pg_sleep(0.005);
    end loop;
  end if;
  -- Renewed when less than 4 s are left: about once a second, not at every claim (each booking's
  -- trigger reads this row; a row updated at every claim is a long chain of versions).
  -- A sender takes its hold back if it lapsed and nobody took it.
  if hold then
    update internal.mail_sender s
       set busy_until = clock_timestamp() + interval '5 seconds', holder = coalesce(sender, s.holder)
     where s.busy_until < clock_timestamp() + interval '4 seconds'
       and (sender is null or s.holder = sender or s.busy_until <= clock_timestamp());
  end if;
  if sender is not null then
    select s.busy_until > clock_timestamp() and s.holder is distinct from sender into yielded
      from internal.mail_sender s
       for share;
    if yielded then
      return;
    end if;
  end if;

  -- A batch tried before: the oldest one due.
  select x.batch_key into retried
    from internal.mail_outbox x
   where x.batch_key is not null
     and x.sent_at is null and x.failed_at is null and x.next_attempt_at <= now()
     and (x.claimed_until is null or x.claimed_until < now())
   order by x.created_at, x.id
   limit 1
   for update skip locked;
  if retried is not null then
    ids := array(
      select x.id from internal.mail_outbox x
       where x.batch_key = retried
         and x.sent_at is null and x.failed_at is null and x.next_attempt_at <= now()
         and (x.claimed_until is null or x.claimed_until < now())
       for update skip locked);
    -- Whole, or not now: a row of it taken by another sender means that sender has the batch.
    if not exists (
      select from internal.mail_outbox x
       where x.batch_key = retried and x.sent_at is null and x.failed_at is null
         and x.id <> all (ids)
    ) then
      return query
        update internal.mail_outbox o
           set claimed_until = leased, attempts = o.attempts + 1
         where o.id = any (ids)
        returning to_jsonb(o);
      return;
    end if;
  end if;

  retried := pg_catalog.gen_random_uuid();
  return query
    update internal.mail_outbox o
       set claimed_until = leased, attempts = o.attempts + 1, batch_key = retried
     where o.id in (
       select x.id from internal.mail_outbox x
        where x.batch_key is null
          and x.sent_at is null and x.failed_at is null and x.next_attempt_at <= now()
          and (x.claimed_until is null or x.claimed_until < now())
        order by x.created_at, x.id
        limit least(greatest(batch, 1), 100)
        for update skip locked)
    returning to_jsonb(o);
end
$function$;

grant execute on function public.edge_claim_mail(batch integer, lease_seconds integer, hold boolean, after_writers boolean, sender uuid) to service_role;
