-- A guest proves the email address is theirs (docs/decisions.md, "Guest contact confirmation"):
-- create_booking mails an 8-digit code (stored hashed) and a link; `confirm_guest_booking` checks
-- it (5 wrong codes per code, 20 wrong codes per client address an hour), `resend_guest_confirmation`
-- mails a new code (3 times at most, a minute apart, never extending the deadline). What the
-- public RPCs answer about a booking is its public projection: no contact, no file paths, no
-- free text, no staff notes.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
-- One row per guest booking created by create_booking.
create table internal.guest_confirmations (
  booking_id uuid primary key references public.bookings (id) on delete cascade,
  -- sha256 of "<booking id>:<code>" (internal.confirmation_code_hash).
  code_hash text not null,
  -- Wrong codes given since the current code was sent.
  attempts smallint not null default 0,
  -- Codes sent: the first and the resends.
  sends smallint not null default 1,
  last_sent_at timestamptz not null default now(),
  -- The creation's client address key, for the limits by address; forgotten once the contact is
  -- confirmed, and after a day.
  client_key text,
  created_at timestamptz not null default now(),
  confirmed_at timestamptz
);

comment on table internal.guest_confirmations is
  'Confirmation state of guest bookings: hashed code, attempts, resends, the creating address (for limits).';

-- One row per wrong confirmation code, by client address; kept an hour.
create table internal.confirmation_failures (
  client_key text not null,
  failed_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table internal.guest_confirmations
  add constraint guest_confirmations_code_hash_format check (code_hash ~ '^[0-9a-f]{64}$'),
  add constraint guest_confirmations_attempts_range check (attempts between 0 and 100),
  add constraint guest_confirmations_sends_range check (sends between 1 and 100);

create index guest_confirmations_client_key_created_at_idx
  on internal.guest_confirmations (client_key, created_at) where client_key is not null;
create index guest_confirmations_created_at_idx on internal.guest_confirmations (created_at);
create index confirmation_failures_client_key_idx
  on internal.confirmation_failures (client_key, failed_at);

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- A new confirmation code: 8 random decimal digits (gen_random_bytes; modulo bias < 10⁻⁶).
create or replace function internal.new_confirmation_code()
returns text
language sql
volatile
set search_path = ''
as $$
  select lpad(((('x' || encode(extensions.gen_random_bytes(6), 'hex'))::bit(48)::bigint)
    % 100000000)::text, 8, '0')
$$;

-- How a code is stored: sha256 of "<booking id>:<code>", hex.
create or replace function internal.confirmation_code_hash(booking_id uuid, code text)
returns text
language sql
immutable
set search_path = ''
as $$
  select encode(extensions.digest(booking_id::text || ':' || code, 'sha256'), 'hex')
$$;

-- What the public RPCs (create_booking, confirm_guest_booking) answer about a booking, to any
-- caller: the booking without its contact, file paths, free text or staff notes.
create or replace function internal.booking_public_json(b public.bookings)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', b.id,
    'reference', b.reference,
    'user_id', b.user_id,
    'car_id', b.car_id,
    'start_at', b.start_at,
    'end_at', b.end_at,
    'pickup_location_id', b.pickup_location_id,
    'dropoff_location_id', b.dropoff_location_id,
    'driver_option', b.driver_option,
    'from_abroad', b.from_abroad,
    'extras', b.extras,
    'insurance', b.insurance,
    'payment_method', b.payment_method,
    'payment_status', b.payment_status,
    'price', b.price,
    'total_dzd', b.total_dzd,
    'status', b.status,
    'status_reason', b.status_reason,
    'locale', b.locale,
    'confirm_by', b.confirm_by,
    'contact_confirmed_at', b.contact_confirmed_at,
    'created_at', b.created_at,
    'updated_at', b.updated_at
  )
$$;

-- The periodic job (docs/database.md, "Operations"; run it every minute): flips unconfirmed guest
-- bookings past their deadline to `expired`, at most `batch` per call, so the guest (a mail), the
-- staff board and the status history learn it on time — nothing depends on it for correctness,
-- every reader treats a lapsed hold as free. Then forgets what limits no longer need: wrong-code
-- records older than an hour, the client address of guest bookings older than a day, dropped-mail
-- logs older than 30 days. Returns how many bookings it expired.
create or replace function internal.expire_unconfirmed_bookings(batch integer default 500)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  expired integer := internal.expire_lapsed_bookings(batch => greatest(coalesce(batch, 500), 1));
begin
  delete from internal.confirmation_failures f where f.failed_at < now() - interval '1 hour';
  update internal.guest_confirmations c
     set client_key = null
   where c.client_key is not null and c.created_at < now() - interval '1 day';
  delete from internal.mail_dropped d where d.created_at < now() - interval '30 days';
  return expired;
end
$$;

-- A guest confirms the email address of their booking with the mailed code (from the app, or
-- the mail's link: {site_url}/guest-booking?ref=<reference>&code=<code>). Answers, without
-- raising, so that a wrong code is counted:
--   {"confirmed": true, "booking": <public projection>} — also when confirmed already (same code);
--   {"confirmed": false, "reason": "invalid_confirmation_code"} — wrong code, or no such guest
--     booking (the same answer, so references cannot be probed);
--   {"confirmed": false, "reason": "confirmation_attempts_exceeded"} — 5 wrong codes: ask for a
--     new one (resend_guest_confirmation);
--   {"confirmed": false, "reason": "booking_expired"} — the deadline passed (the booking is now
--     expired);
--   {"confirmed": false, "reason": "invalid_status_transition"} — staff closed the booking.
-- Raises rate_limited (P0001, detail {"retry_after": …}) after 20 wrong codes an hour from one
-- client address.
create or replace function public.confirm_guest_booking(reference text, code text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller text := coalesce(internal.client_address_key(), 'unknown');
  ref text := internal.normalize_reference(confirm_guest_booking.reference);
  given text := regexp_replace(coalesce(confirm_guest_booking.code, ''), '[\s-]', '', 'g');
  b public.bookings;
  c internal.guest_confirmations;
  failures integer;
  oldest timestamptz;
begin
  perform pg_advisory_xact_lock(hashtextextended('confirm_guest_booking:' || caller, 0));
  select count(*), min(f.failed_at) into failures, oldest
    from internal.confirmation_failures f
   where f.client_key = caller and f.failed_at > now() - interval '1 hour';
  if failures >= 20 then
    perform internal.fail('rate_limited', json_build_object('limit', 20,
      'retry_after', oldest + interval '1 hour')::text);
  end if;

  if ref is not null then
    select x.* into b from public.bookings x
     where x.reference = ref and x.user_id is null
       for update;
  end if;
  if b.id is not null then
    select x.* into c from internal.guest_confirmations x where x.booking_id = b.id for update;
  end if;
  if b.id is null or c.booking_id is null or given !~ '^[0-9]{8}$' then
    insert into internal.confirmation_failures (client_key) values (caller);
    return jsonb_build_object('confirmed', false, 'reason', 'invalid_confirmation_code');
  end if;

  if b.contact_confirmed_at is null then
    if internal.expire_lapsed_bookings(only_booking => b.id) > 0 or b.status = 'expired' then
      return jsonb_build_object('confirmed', false, 'reason', 'booking_expired');
    end if;
    if b.status <> 'pending' then
      return jsonb_build_object('confirmed', false, 'reason', 'invalid_status_transition');
    end if;
    if c.attempts >= 5 then
      return jsonb_build_object('confirmed', false, 'reason', 'confirmation_attempts_exceeded');
    end if;
  end if;

  if internal.confirmation_code_hash(b.id, given) <> c.code_hash then
    insert into internal.confirmation_failures (client_key) values (caller);
    if b.contact_confirmed_at is null then
      update internal.guest_confirmations x set attempts = x.attempts + 1
       where x.booking_id = b.id;
    end if;
    return jsonb_build_object('confirmed', false, 'reason', 'invalid_confirmation_code');
  end if;

  if b.contact_confirmed_at is null then
    update public.bookings x set contact_confirmed_at = now() where x.id = b.id returning x.* into b;
    update internal.guest_confirmations x
       set confirmed_at = now(),
           client_key = null
     where x.booking_id = b.id;
    perform internal.enqueue_guest_mail(b, 'booking_received');
  end if;
  return jsonb_build_object('confirmed', true, 'booking', internal.booking_public_json(b));
end
$$;

-- Mails a new confirmation code for an unconfirmed guest booking; the booking's id (generated on
-- the device that made it) is the proof. The deadline stays what it was. Answers:
--   {"sent": true, "confirm_by": …, "resends_left": n};
--   {"sent": false, "reason": "resend_limited", "resends_left": n, "retry_after": …} — 3 resends
--     at most, a minute apart (retry_after is null when none are left);
--   {"sent": false, "reason": "mail_rate_limited"} — the address had its share of mails: the
--     previous code stays valid;
--   {"sent": false, "reason": "already_confirmed" | "booking_expired" | "invalid_status_transition"}.
-- Raises not_found for an unknown id or a customer's booking.
create or replace function public.resend_guest_confirmation(booking_id uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  b public.bookings;
  c internal.guest_confirmations;
  new_code text;
  left_after integer;
begin
  select x.* into b from public.bookings x
   where x.id = resend_guest_confirmation.booking_id and x.user_id is null
     for update;
  if not found then
    perform internal.fail('not_found', coalesce(resend_guest_confirmation.booking_id::text, 'booking_id'));
  end if;
  if b.contact_confirmed_at is not null then
    return jsonb_build_object('sent', false, 'reason', 'already_confirmed');
  end if;
  if internal.expire_lapsed_bookings(only_booking => b.id) > 0 or b.status = 'expired' then
    return jsonb_build_object('sent', false, 'reason', 'booking_expired');
  end if;
  if b.status <> 'pending' then
    return jsonb_build_object('sent', false, 'reason', 'invalid_status_transition');
  end if;
  select x.* into c from internal.guest_confirmations x where x.booking_id = b.id for update;
  if not found then
    perform internal.fail('not_found', b.id::text);
  end if;
  if c.sends >= 4 then
    return jsonb_build_object('sent', false, 'reason', 'resend_limited', 'resends_left', 0,
      'retry_after', null);
  end if;
  if c.last_sent_at > now() - interval '1 minute' then
    return jsonb_build_object('sent', false, 'reason', 'resend_limited',
      'resends_left', 4 - c.sends, 'retry_after', c.last_sent_at + interval '1 minute');
  end if;

  new_code := internal.new_confirmation_code();
  if not internal.enqueue_guest_mail(b, 'guest_confirmation', new_code) then
    return jsonb_build_object('sent', false, 'reason', 'mail_rate_limited');
  end if;
  update internal.guest_confirmations x
     set code_hash = internal.confirmation_code_hash(b.id, new_code),
         attempts = 0,
         sends = x.sends + 1,
         last_sent_at = now()
   where x.booking_id = b.id
  returning 4 - x.sends into left_after;
  return jsonb_build_object('sent', true, 'confirm_by', b.confirm_by, 'resends_left', left_after);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
alter table internal.guest_confirmations enable row level security;
alter table internal.confirmation_failures enable row level security;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on table internal.guest_confirmations, internal.confirmation_failures from public;

revoke all on function internal.new_confirmation_code() from public;
revoke all on function internal.confirmation_code_hash(uuid, text) from public;
revoke all on function internal.booking_public_json(public.bookings) from public;
revoke all on function internal.expire_unconfirmed_bookings(integer) from public;
revoke all on function public.confirm_guest_booking(text, text) from public, anon, authenticated;
revoke all on function public.resend_guest_confirmation(uuid) from public, anon, authenticated;

grant execute on function public.confirm_guest_booking(text, text)
  to anon, authenticated, service_role;
grant execute on function public.resend_guest_confirmation(uuid)
  to anon, authenticated, service_role;
-- The schedule runs the expiry (docs/database.md, "Operations").
grant execute on function internal.expire_unconfirmed_bookings(integer) to service_role;
