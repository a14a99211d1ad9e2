-- Web Push (docs/decisions.md, "Push"): a staff decision reaches the device even when the app is
-- closed. A device gives its push subscription (the push service's endpoint and the keys the
-- message is encrypted for); each new notification of a customer, and each status change of a
-- guest booking, becomes one row per subscription in internal.push_outbox; the `push-send` Edge
-- Function encrypts and sends them (RFC 8291, RFC 8292), called by the outbox's webhook and every
-- minute by a schedule, like the mail outbox (20261125300000_edge_functions.sql).
-- - A customer manages their own subscriptions (RLS), at most 10 (the oldest goes).
-- - A guest binds a subscription to one booking through public.find_guest_booking, the guest
--   lookup itself (same matching, same limits); at most 5 per booking; it is deleted with the
--   booking's last outcome (rejected, cancelled, completed, expired), after that message is queued.
-- - Endpoints are attacker-controlled URLs the server will POST to: only known push services are
--   accepted (internal.push_services, configurable), https only, no user info, ≤ 1024 characters.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
create table public.push_subscriptions (
  id uuid primary key default gen_random_uuid(),
  -- A customer's subscription…
  user_id uuid references auth.users (id) on delete cascade,
  -- …or a guest's, bound to one booking.
  booking_id uuid references public.bookings (id) on delete cascade,
  -- The push service's URL for this device (PushSubscription.endpoint).
  endpoint text not null,
  -- The device's P-256 public key and auth secret (PushSubscription.toJSON().keys), base64url.
  p256dh text not null,
  auth text not null,
  -- The language the device shows the app in (the notification's words when the app is closed).
  locale text not null default 'fr',
  created_at timestamptz not null default now(),
  -- Renewed each time the app opens (subscriptions are silently lost on some browsers).
  updated_at timestamptz not null default now()
);

-- The push services the server may POST to: scheme, host (`*.` = any subdomain) and port (null:
-- the scheme's default). Add a row for another push service; the local stack adds its own push
-- service (http://localhost:<port>) at each start.
create table internal.push_services (
  scheme text not null,
  host text not null,
  port integer,
  note text,
  primary key (scheme, host)
);

insert into internal.push_services (scheme, host, note) values
  ('https', 'fcm.googleapis.com', 'Chrome, Edge on Android, Opera, Samsung Internet'),
  ('https', 'android.googleapis.com', 'older Chrome subscriptions'),
  ('https', 'updates.push.services.mozilla.com', 'Firefox'),
  ('https', 'web.push.apple.com', 'Safari, iOS and iPadOS Home Screen apps'),
  ('https', '*.push.apple.com', 'Safari'),
  ('https', '*.notify.windows.com', 'Edge on Windows (WNS)');

-- One row per message and subscription. The endpoint and keys are copied, so a guest's
-- subscription can be deleted as soon as its last message is queued.
create table internal.push_outbox (
  id bigint generated always as identity primary key,
  subscription_id uuid references public.push_subscriptions (id) on delete set null,
  endpoint text not null,
  p256dh text not null,
  auth text not null,
  -- What the service worker shows (docs/pwa.md, "Push"): JSON, encrypted for the device.
  payload jsonb not null,
  -- RFC 8030 Topic: a newer message about the same booking replaces one not yet delivered.
  topic text,
  urgency text not null default 'high',
  ttl_seconds integer not null default 86400,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  claimed_until timestamptz,
  last_error text,
  -- The push service's last answer.
  status_code integer,
  sent_at timestamptz,
  failed_at timestamptz
);

-- Every attempt, as pg_net does not retry and keeps answers only 6 hours.
create table internal.push_attempts (
  push_id bigint not null references internal.push_outbox (id) on delete cascade,
  attempt integer not null,
  at timestamptz not null default now(),
  status_code integer,
  outcome text not null,
  error text
);

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table public.push_subscriptions
  add constraint push_subscriptions_one_owner check ((user_id is null) <> (booking_id is null)),
  add constraint push_subscriptions_endpoint_length check (char_length(endpoint) <= 1024),
  add constraint push_subscriptions_p256dh_format check (p256dh ~ '^[A-Za-z0-9_-]{87}=?$'),
  add constraint push_subscriptions_auth_format check (auth ~ '^[A-Za-z0-9_-]{22}(==)?$'),
  add constraint push_subscriptions_locale_known check (locale in ('fr', 'en', 'ar')),
  add constraint push_subscriptions_user_endpoint_key unique (user_id, endpoint),
  add constraint push_subscriptions_booking_endpoint_key unique (booking_id, endpoint);

create index push_subscriptions_booking_id_idx on public.push_subscriptions (booking_id);
create index push_subscriptions_endpoint_idx on public.push_subscriptions (endpoint);

alter table internal.push_services
  add constraint push_services_scheme_known check (scheme in ('https', 'http')),
  add constraint push_services_host_format check (host ~ '^(\*\.)?[a-z0-9.-]+$'),
  add constraint push_services_port_range check (port between 1 and 65535);

alter table internal.push_outbox
  add constraint push_outbox_urgency_known check (urgency in ('very-low', 'low', 'normal', 'high')),
  add constraint push_outbox_ttl_range check (ttl_seconds between 0 and 2419200),
  add constraint push_outbox_topic_format check (topic ~ '^[A-Za-z0-9_-]{1,32}$'),
  add constraint push_outbox_last_error_length check (char_length(last_error) <= 1000);

alter table internal.push_attempts
  add constraint push_attempts_outcome_known check (outcome in ('sent', 'retry', 'failed', 'gone')),
  add constraint push_attempts_error_length check (char_length(error) <= 1000);

create index push_outbox_due_idx on internal.push_outbox (next_attempt_at)
  where sent_at is null and failed_at is null;
create index push_outbox_subscription_id_idx on internal.push_outbox (subscription_id);
create index push_attempts_push_id_idx on internal.push_attempts (push_id);

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- Whether the server may POST to this endpoint: an absolute http(s) URL without user info whose
-- scheme, host and port are those of a row of internal.push_services.
create or replace function internal.push_endpoint_allowed(endpoint text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  m text[];
  url_host text;
  url_port integer;
begin
  if endpoint is null or char_length(endpoint) > 1024 then
    return false;
  end if;
  -- scheme://host[:port]/path, printable ASCII only; '@' never appears before the path.
  m := regexp_match(endpoint, '^(https?)://([A-Za-z0-9.-]+)(?::([0-9]{1,5}))?(/[!-~]*)$');
  if m is null then
    return false;
  end if;
  url_host := lower(m[2]);
  url_port := m[3]::integer;
  return exists (
    select 1 from internal.push_services s
     where s.scheme = lower(m[1])
       and (s.host = url_host
         or (left(s.host, 2) = '*.' and url_host like '%.' || substr(s.host, 3)))
       and coalesce(url_port, case lower(m[1]) when 'https' then 443 else 80 end)
         = coalesce(s.port, case s.scheme when 'https' then 443 else 80 end));
end
$$;

-- Before a subscription is stored: a known push service, the server's timestamps, and at most 10
-- per customer (the oldest go).
create or replace function internal.check_push_subscription()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not internal.push_endpoint_allowed(new.endpoint) then
    perform internal.fail('invalid_push_endpoint', left(new.endpoint, 200));
  end if;
  new.updated_at := now();
  if tg_op = 'INSERT' then
    new.created_at := now();
    if new.user_id is not null then
      delete from public.push_subscriptions s
       where s.id in (
         select x.id from public.push_subscriptions x
          where x.user_id = new.user_id and x.endpoint <> new.endpoint
          order by x.updated_at desc, x.id
         offset 9);
    end if;
  end if;
  return new;
end
$$;

-- The payload a device gets: what the bell shows (type, reference, reason), where a click leads,
-- and the subscription's language.
create or replace function internal.push_payload(
  kind text,
  audience text,
  booking_id uuid,
  reference text,
  reason text,
  reason_code text,
  notification_id uuid,
  locale text
)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'v', 1,
    'type', kind,
    'audience', audience,
    'booking_id', booking_id,
    'reference', reference,
    'reason', reason,
    'reason_code', reason_code,
    'notification_id', notification_id,
    'locale', locale,
    'url', case
      when audience = 'guest' then '/booking-success?id=' || booking_id::text
      when booking_id is not null then '/mybookings?booking=' || booking_id::text
      else '/mybookings' end,
    'at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
$$;

-- Decisions travel with urgency high (a phone in Doze delivers them at once) and a day's TTL: the
-- bell and the background checks catch up with anything older.
create or replace function internal.push_urgency(kind text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when kind in ('booking_accepted', 'booking_rejected', 'booking_cancelled',
                            'booking_refused', 'booking_expired')
    then 'high' else 'normal' end
$$;

-- A new notification of a customer → one message per subscription of theirs.
create or replace function internal.push_on_notification()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into internal.push_outbox (subscription_id, endpoint, p256dh, auth, payload, topic, urgency, ttl_seconds)
  select s.id, s.endpoint, s.p256dh, s.auth,
         internal.push_payload(new.type, 'customer', new.booking_id, new.reference, new.reason,
           new.reason_code, new.id, s.locale),
         coalesce(replace(new.booking_id::text, '-', ''), replace(new.reference, '-', '')),
         internal.push_urgency(new.type),
         86400
    from public.push_subscriptions s
   where s.user_id = new.user_id;
  return null;
end
$$;

-- A guest booking's new status → one message per subscription bound to it; its last outcome
-- also ends those subscriptions (the messages keep their own copy of the keys).
create or replace function internal.push_on_guest_status_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  kind text := internal.status_notification_type(new.status);
begin
  if kind is not null then
    insert into internal.push_outbox (subscription_id, endpoint, p256dh, auth, payload, topic, urgency, ttl_seconds)
    select s.id, s.endpoint, s.p256dh, s.auth,
           internal.push_payload(kind, 'guest', new.id, new.reference,
             case when new.status in ('rejected', 'cancelled') then nullif(trim(new.status_reason), '') end,
             case when new.status = 'expired' then new.status_reason end,
             null, s.locale),
           replace(new.id::text, '-', ''),
           internal.push_urgency(kind),
           86400
      from public.push_subscriptions s
     where s.booking_id = new.id;
  end if;
  if new.status in ('rejected', 'cancelled', 'completed', 'expired') then
    delete from public.push_subscriptions s where s.booking_id = new.id;
  end if;
  return null;
end
$$;

-- Webhook: new messages in the outbox → push-send (once per statement: it takes a batch).
create or replace function internal.push_outbox_webhook()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform internal.invoke_edge_function('push-send',
    jsonb_build_object('type', 'INSERT', 'schema', 'internal', 'table', 'push_outbox'));
  return null;
end
$$;

-- A guest turns push on for a booking of theirs: the proof is the guest lookup itself
-- (public.find_guest_booking: the same matching and the same limits; a wrong contact counts as a
-- failed lookup). Answers {"subscribed": true} or {"subscribed": false, "reason": "not_found" |
-- "booking_finished"}; raises rate_limited as the lookup does, invalid_push_endpoint for an
-- endpoint of no known push service, invalid_payload for malformed keys.
create or replace function public.subscribe_guest_push(
  reference text,
  contact text,
  endpoint text,
  p256dh text,
  auth text,
  locale text default 'fr'
)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  found jsonb;
  booking uuid;
begin
  if not internal.push_endpoint_allowed(subscribe_guest_push.endpoint) then
    perform internal.fail('invalid_push_endpoint', left(subscribe_guest_push.endpoint, 200));
  end if;
  if coalesce(subscribe_guest_push.p256dh, '') !~ '^[A-Za-z0-9_-]{87}=?$'
     or coalesce(subscribe_guest_push.auth, '') !~ '^[A-Za-z0-9_-]{22}(==)?$'
     or coalesce(subscribe_guest_push.locale, '') not in ('fr', 'en', 'ar') then
    perform internal.fail('invalid_payload', 'p256dh, auth (base64url) and locale (fr, en, ar)');
  end if;
  found := public.find_guest_booking(subscribe_guest_push.reference, subscribe_guest_push.contact);
  if found is null then
    return jsonb_build_object('subscribed', false, 'reason', 'not_found');
  end if;
  if found ->> 'status' in ('rejected', 'cancelled', 'completed', 'expired') then
    return jsonb_build_object('subscribed', false, 'reason', 'booking_finished');
  end if;
  booking := (found ->> 'id')::uuid;
  insert into public.push_subscriptions as s (booking_id, endpoint, p256dh, auth, locale)
  values (booking, subscribe_guest_push.endpoint, subscribe_guest_push.p256dh,
          subscribe_guest_push.auth, subscribe_guest_push.locale)
  on conflict on constraint push_subscriptions_booking_endpoint_key do update
    set p256dh = excluded.p256dh, auth = excluded.auth, locale = excluded.locale;
  -- At most 5 devices per booking: the oldest go.
  delete from public.push_subscriptions s
   where s.id in (
     select x.id from public.push_subscriptions x
      where x.booking_id = booking
      order by x.updated_at desc, x.id
     offset 5);
  return jsonb_build_object('subscribed', true);
end
$$;

-- A guest turns push off on this device: the endpoint (a capability URL only the device and its
-- push service know) is the proof. Returns how many subscriptions went.
create or replace function public.unsubscribe_guest_push(endpoint text)
returns integer
language sql
volatile
security definer
set search_path = ''
as $$
  with gone as (
    delete from public.push_subscriptions s
     where s.user_id is null and s.endpoint = unsubscribe_guest_push.endpoint
    returning 1)
  select count(*)::integer from gone
$$;

-- push-send: leases up to `batch` due messages, oldest first (skip locked); messages past their
-- TTL are given up first, and settled messages older than 7 days forgotten.
create or replace function public.edge_claim_push(batch integer default 20, lease_seconds integer default 60)
returns setof jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
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
$$;

-- push-send: the outcome of one leased message. `sent`; `gone` (404/410: the subscription is
-- dead, every row with its endpoint is deleted); `failed` (refused for good); `retry` (after 1, 2,
-- 4… min, at most an hour; given up after 8 attempts). Every call is kept in push_attempts.
create or replace function public.edge_settle_push(
  push_id bigint,
  outcome text,
  status_code integer default null,
  error text default null
)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
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
$$;

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
create trigger push_subscriptions_check
  before insert or update on public.push_subscriptions
  for each row execute function internal.check_push_subscription();

create trigger notifications_push
  after insert on public.notifications
  for each row execute function internal.push_on_notification();

create trigger bookings_push_guest_status
  after update of status on public.bookings
  for each row
  when (new.user_id is null and old.status is distinct from new.status)
  execute function internal.push_on_guest_status_changed();

create trigger push_outbox_send
  after insert on internal.push_outbox
  for each statement execute function internal.push_outbox_webhook();

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
alter table public.push_subscriptions enable row level security;
alter table internal.push_services enable row level security;
alter table internal.push_outbox enable row level security;
alter table internal.push_attempts enable row level security;

create policy "Customers read their own push subscriptions"
  on public.push_subscriptions for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Customers add their own push subscriptions"
  on public.push_subscriptions for insert to authenticated
  with check (user_id = (select auth.uid()) and booking_id is null);
create policy "Customers renew their own push subscriptions"
  on public.push_subscriptions for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()) and booking_id is null);
create policy "Customers remove their own push subscriptions"
  on public.push_subscriptions for delete to authenticated
  using (user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------------------------
-- Schedules
-- ---------------------------------------------------------------------------------------------
select cron.schedule('push-send-sweep', '* * * * *',
  $$select internal.invoke_edge_function('push-send', '{"type": "SWEEP"}')$$);

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on table public.push_subscriptions from anon, authenticated;
grant select, delete on table public.push_subscriptions to authenticated;
grant insert (user_id, endpoint, p256dh, auth, locale) on table public.push_subscriptions to authenticated;
grant update (user_id, endpoint, p256dh, auth, locale) on table public.push_subscriptions to authenticated;
grant all on table public.push_subscriptions to service_role;
revoke all on table internal.push_services, internal.push_outbox, internal.push_attempts
  from public, anon, authenticated;

revoke all on function internal.push_endpoint_allowed(text) from public;
revoke all on function internal.check_push_subscription() from public;
revoke all on function internal.push_payload(text, text, uuid, text, text, text, uuid, text) from public;
revoke all on function internal.push_urgency(text) from public;
revoke all on function internal.push_on_notification() from public;
revoke all on function internal.push_on_guest_status_changed() from public;
revoke all on function internal.push_outbox_webhook() from public;

revoke all on function public.subscribe_guest_push(text, text, text, text, text, text) from public;
revoke all on function public.unsubscribe_guest_push(text) from public;
grant execute on function public.subscribe_guest_push(text, text, text, text, text, text) to anon, authenticated;
grant execute on function public.unsubscribe_guest_push(text) to anon, authenticated;

revoke all on function public.edge_claim_push(integer, integer) from public, anon, authenticated;
revoke all on function public.edge_settle_push(bigint, text, integer, text) from public, anon, authenticated;
grant execute on function public.edge_claim_push(integer, integer) to service_role;
grant execute on function public.edge_settle_push(bigint, text, integer, text) to service_role;
