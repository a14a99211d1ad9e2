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

-- The hold has an owner. A sender that ended released the hold of any sender still running, and
-- the statements then called a webhook each until that sender's next claim renewed it: with
-- batches, the senders those webhooks started found nothing to send, ended after a second and
-- released again (measured: a 5 s loop of 2,600 bookings left 17 senders running at once and 12.5
-- s of webhook calls after it). Now a sender takes the hold first (`edge_hold_mail`) and leaves at
-- once when another running sender has it (that sender takes its rows at its next claim), and a
-- sender releases only its own hold.
alter table internal.mail_sender
  add column holder uuid;

-- true: `sender` holds the outbox for 5 s (it was free, or already its own); false: another
-- running sender holds it. Two calls at once: the second waits for the first's row lock and then
-- sees its hold.
create function public.edge_hold_mail(sender uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update internal.mail_sender s
     set busy_until = clock_timestamp() + interval '5 seconds', holder = sender
   where s.busy_until <= clock_timestamp() or s.holder = sender;
  return found;
end
$$;

-- Leases up to `batch` due rows (≤ 100, the provider's batch size): a batch tried before, whole
-- and alone, under its key; else the oldest due rows not in a batch, stamped with a new key.
-- `hold` and `after_writers` as in 20261128200000_mail_sender_hold; `hold` renews `sender`'s hold,
-- or takes a lapsed one (renews any hold when `sender` is null: a send-mail deployed before this
-- migration).
-- `sender`: nothing while another sender holds the outbox. That sender takes the rows itself, and
-- two senders at once would each spend the provider's rate (a sender's claims after its release,
-- or one whose hold lapsed while the provider was slow). The hold's row is locked (for share)
-- until the claim commits, so a hold taken meanwhile waits and no row queued under it is taken.
drop function public.edge_claim_mail(integer, integer, boolean, boolean);
create function public.edge_claim_mail(
  batch integer default 20,
  lease_seconds integer default 120,
  hold boolean default false,
  after_writers boolean default false,
  sender uuid default null
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

-- The sender stops: statements from now on call the webhook again, and rows still due get a
-- webhook call now, for a fresh sender. `sender`: only its own hold (another sender that holds
-- the outbox takes those rows itself); null releases any (a send-mail deployed before this
-- migration).
drop function public.edge_release_mail();
create function public.edge_release_mail(sender uuid default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

revoke all on function public.edge_hold_mail(uuid) from public, anon, authenticated;
revoke all on function public.edge_claim_mail(integer, integer, boolean, boolean, uuid) from public, anon, authenticated;
revoke all on function public.edge_release_mail(uuid) from public, anon, authenticated;
grant execute on function public.edge_hold_mail(uuid) to service_role;
grant execute on function public.edge_claim_mail(integer, integer, boolean, boolean, uuid) to service_role;
grant execute on function public.edge_release_mail(uuid) to service_role;
