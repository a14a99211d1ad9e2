-- Mail leaves in batches (docs/functions.md, "send-mail").
--
-- send-mail sent each claimed row in a request of its own. The provider answers 2 requests a
-- second by default (Resend), so at peak the confirmations left at 2 a second, whatever the
-- bookings' pace; Resend's `POST /emails/batch` takes up to 100 mails in one request, under one
-- idempotency key for the whole request.
--
-- A batch key is only safe if a retried request is the same batch: a sender that dies after the
-- provider accepted a batch, or whose answer was lost, must send those rows again under that key
-- and with nothing else (a different set under the same key is refused; under a new key it is
-- sent twice). So each claim now stamps its rows with `batch_key` before they are sent, and a
-- claim takes a batch tried before (its rows due again, unsettled) whole, alone, under its key.
-- A batch is settled together (send-mail settles a request's outcomes in one call) and retried
-- and given up together: its rows' backoff and last attempt are its most-tried row's, so that
-- the rows still due are always the whole batch.

alter table internal.mail_outbox
  -- The batch a sender last put this row in; the provider's idempotency key is made from it.
  add column batch_key uuid;

-- Leases up to `batch` due rows (≤ 100, the provider's batch size): a batch tried before, whole
-- and alone, under its key; else the oldest due rows not in a batch, stamped with a new key.
-- `hold` and `after_writers` as in 20261128200000_mail_sender_hold.
create or replace function public.edge_claim_mail(
  batch integer default 20,
  lease_seconds integer default 120,
  hold boolean default false,
  after_writers boolean default false
)
returns setof jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  writers xid[];
  give_up timestamptz := clock_timestamp() + interval '5 seconds';
  leased timestamptz := now() + make_interval(secs => greatest(lease_seconds, 10));
  retried uuid;
  ids bigint[];
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
  if hold then
    update internal.mail_sender s
       set busy_until = clock_timestamp() + interval '5 seconds'
     where s.busy_until < clock_timestamp() + interval '4 seconds';
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
$$;

-- A batch's outcomes at once: [{mail_id, provider_id} | {mail_id, error, permanent}]. A failure
-- waits 1, 2, 4… min (≤ 1 h) and is given up when permanent or after 8 attempts, counted for a
-- batch by its most-tried row among these outcomes (its rows are retried, and given up, together).
create or replace function public.edge_settle_mails(results jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
