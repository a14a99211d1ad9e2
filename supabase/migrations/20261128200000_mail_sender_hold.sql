-- One mail sender at a time, and no mail left behind (docs/functions.md, "send-mail").
--
-- Each statement that queued a mail called send-mail through pg_net: at 300 bookings a second,
-- 300 Edge Function calls a second, each claiming the one or two rows no other call had taken,
-- each row settled by a call of its own. Measured on this machine (docs/database.md, "Bookings at
-- scale"): the 3,250 confirmation mails of five seconds at peak took 20.5 s to leave, and sending
-- them cost as much CPU as the bookings themselves. And the provider answers 2 requests a second
-- by default (Resend): many senders at once are refused (429) and wait a minute to retry.
--
-- Now a running sender holds `internal.mail_sender.busy_until` (4 to 5 s ahead, kept by its
-- claims): a statement that queues a mail while it is held calls no webhook, as the sender takes
-- the row at its next claim. A sender that ends first releases the hold, then claims once more after every
-- transaction that was writing when it released has ended (`edge_claim_mail(after_writers)`):
-- a row queued by a transaction that saw the hold is then committed, and taken. A sender that dies
-- holding leaves its rows to the schedule's sweep (every minute), as before; one that ends with
-- rows still due calls the next sender when it releases.

create table internal.mail_sender (
  id boolean primary key default true,
  busy_until timestamptz not null default '-infinity',
  constraint mail_sender_single check (id)
);
alter table internal.mail_sender enable row level security;
insert into internal.mail_sender default values;
revoke all on internal.mail_sender from public, anon, authenticated;

create or replace function internal.mail_outbox_webhook()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- A sender is running: it takes this statement's rows at its next claim, or at its last.
  if exists (select from internal.mail_sender s where s.busy_until > clock_timestamp()) then
    return null;
  end if;
  perform internal.invoke_edge_function('send-mail',
    jsonb_build_object('type', 'INSERT', 'schema', 'internal', 'table', 'mail_outbox'));
  return null;
end
$$;

-- `hold`: this sender is running and claims again within 4 s (webhooks wait). `after_writers`:
-- first wait (≤ 5 s) until every transaction that had written when this call began has ended, so
-- that a row queued by one that saw a hold since released is visible.
drop function public.edge_claim_mail(integer, integer);
create function public.edge_claim_mail(
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
$$;

-- The sender stops: statements from now on call the webhook again. Rows still due (a sender that
-- spent its time budget with mail still coming) get a webhook call now, for a fresh sender: else
-- they would wait for the sweep.
create function public.edge_release_mail()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update internal.mail_sender s set busy_until = least(s.busy_until, clock_timestamp());
  if exists (
    select from internal.mail_outbox x
     where x.sent_at is null and x.failed_at is null and x.next_attempt_at <= now()
       and (x.claimed_until is null or x.claimed_until < now())
  ) then
    perform internal.invoke_edge_function('send-mail',
      jsonb_build_object('type', 'CONTINUE', 'schema', 'internal', 'table', 'mail_outbox'));
  end if;
end
$$;

-- A batch's outcomes at once: [{mail_id, provider_id} | {mail_id, error, permanent}], each as
-- edge_settle_mail records it.
create function public.edge_settle_mails(results jsonb)
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
         last_error = left(r.error, 1000),
         next_attempt_at = now() + least(interval '1 hour', interval '1 minute' * 2 ^ (o.attempts - 1)),
         failed_at = case when coalesce(r.permanent, false) or o.attempts >= 8 then now() end
    from jsonb_to_recordset(results) as r(mail_id bigint, error text, permanent boolean)
   where o.id = r.mail_id and r.error is not null and o.sent_at is null;
end
$$;

revoke all on function public.edge_claim_mail(integer, integer, boolean, boolean) from public, anon, authenticated;
revoke all on function public.edge_release_mail() from public, anon, authenticated;
revoke all on function public.edge_settle_mails(jsonb) from public, anon, authenticated;
grant execute on function public.edge_claim_mail(integer, integer, boolean, boolean) to service_role;
grant execute on function public.edge_release_mail() to service_role;
grant execute on function public.edge_settle_mails(jsonb) to service_role;
