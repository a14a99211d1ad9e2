-- A guest's confirmation code always reaches them, or someone says so (issue 20; docs/decisions.md,
-- "Guest contact confirmation"). Seven mails to one address in three minutes (two bookings, a
-- refusal at sync, an acceptance, a rejection) used the address's whole budget of mails a visitor
-- can cause: the next booking's code mail was dropped, "Receive a new code" answered "too many
-- e-mails", and the booking expired unconfirmed. Now:
-- - a mail a visitor can cause counts only the mails of its own kind to the address: codes have
--   their own budget (settings.max_code_mails_per_address_hour / _day), expiry notices theirs;
--   outcome mails (received, accepted, rejected, refused at sync…) never count against either;
-- - a booking says whether its latest code reached the outbox (`code_mail_sent` in its public
--   projection), so the app can say plainly that it could not be sent and offer the agency;
-- - a resend after a code that could not be sent need not wait a minute; the code before the
--   newest stays valid until one of them is typed (mails arrive late and out of order);
-- - staff confirm a guest's contact after a call (staff_confirm_guest_contact) or give the guest
--   more time (staff_extend_confirmation), from the board.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
alter table public.settings
  -- Confirmation code mails to one address (every booking and resend together).
  add column max_code_mails_per_address_hour smallint not null default 8,
  add column max_code_mails_per_address_day smallint not null default 20;

comment on column public.settings.max_code_mails_per_address_hour is
  'Confirmation code mails to one address per hour (other mails do not count).';

alter table internal.guest_confirmations
  -- The code sent before the current one: valid too until either is typed.
  add column previous_code_hash text,
  -- Whether the current code's mail went into the outbox (false: dropped by a limit, or the
  -- address is not mailable). Staff and the agency's phone are then the way.
  add column mail_sent boolean not null default true;

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table public.settings
  add constraint settings_max_code_mails_range check (
    max_code_mails_per_address_hour between 3 and 100
    and max_code_mails_per_address_day between max_code_mails_per_address_hour and 1000
  );

alter table internal.guest_confirmations
  add constraint guest_confirmations_previous_code_hash_format
    check (previous_code_hash is null or previous_code_hash ~ '^[0-9a-f]{64}$');

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- Writes a mail into the outbox, unless its address is not mailable or, for a mail a visitor can
-- cause (`limited`: confirmation codes, expiry notices), the address already had its share of
-- mails *of that kind* in the last hour or day: codes settings.max_code_mails_per_address_hour /
-- _day, expiry notices max_mails_per_address_hour / _day. Other mails never count. A mail not
-- written is logged in internal.mail_dropped. True when written.
create or replace function internal.enqueue_mail(
  to_email text,
  subject text,
  body_text text,
  booking_id uuid,
  kind text,
  locale text,
  limited boolean
)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  to_key text := internal.email_key(enqueue_mail.to_email);
  per_hour integer;
  per_day integer;
  last_hour integer;
  last_day integer;
begin
  if not internal.is_mailable_address(enqueue_mail.to_email) then
    insert into internal.mail_dropped (to_key, kind, booking_id, reason)
    values (coalesce(to_key, ''), enqueue_mail.kind, enqueue_mail.booking_id, 'unsafe_address');
    return false;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('mail:' || to_key, 0));
  if limited then
    if enqueue_mail.kind = 'guest_confirmation' then
      select coalesce(s.max_code_mails_per_address_hour, 8), coalesce(s.max_code_mails_per_address_day, 20)
        into per_hour, per_day
        from public.settings s where s.id = 1;
    else
      select coalesce(s.max_mails_per_address_hour, 5), coalesce(s.max_mails_per_address_day, 10)
        into per_hour, per_day
        from public.settings s where s.id = 1;
    end if;
    select count(*) filter (where o.created_at > now() - interval '1 hour'), count(*)
      into last_hour, last_day
      from internal.mail_outbox o
     where internal.email_key(o.to_email) = to_key
       and o.kind = enqueue_mail.kind
       and o.created_at > now() - interval '1 day';
    if last_hour >= coalesce(per_hour, 5) or last_day >= coalesce(per_day, 10) then
      insert into internal.mail_dropped (to_key, kind, booking_id, reason)
      values (to_key, enqueue_mail.kind, enqueue_mail.booking_id, 'rate_limited');
      return false;
    end if;
  end if;
  insert into internal.mail_outbox (to_email, subject, body_text, booking_id, kind, locale)
  values (enqueue_mail.to_email, enqueue_mail.subject, enqueue_mail.body_text,
    enqueue_mail.booking_id, enqueue_mail.kind, enqueue_mail.locale);
  return true;
end
$$;

-- A guest booking's mail of `kind` into the outbox (20261125200200_guest_mail), limited when a
-- visitor can cause it; a code mail also records whether it went (guest_confirmations.mail_sent).
create or replace function internal.enqueue_guest_mail(b public.bookings, kind text, code text default null)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  m record;
  sent boolean;
begin
  if b.user_id is not null or b.guest_email is null then
    return false;
  end if;
  if kind = 'guest_confirmation' then
    select x.subject, x.body_text into m from internal.guest_confirmation_mail(b, code) x;
  else
    select x.subject, x.body_text into m from internal.guest_mail(b, kind) x;
  end if;
  if m.subject is null then
    return false;
  end if;
  sent := internal.enqueue_mail(b.guest_email, m.subject, m.body_text, b.id, kind, b.locale,
    kind in ('guest_confirmation', 'booking_expired'));
  if kind = 'guest_confirmation' then
    update internal.guest_confirmations x set mail_sent = sent where x.booking_id = b.id;
  end if;
  return sent;
end
$$;

-- A booking as its guest or customer may see it; a guest booking also says whether its latest
-- code mail went (`code_mail_sent`, null for a customer's booking).
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
    'code_mail_sent', (select c.mail_sent from internal.guest_confirmations c where c.booking_id = b.id),
    'created_at', b.created_at,
    'updated_at', b.updated_at
  )
$$;

-- A guest confirms the e-mail address of their booking with the mailed code (the answers of
-- 20261126100100_fleet_holds). The newest code and the one before it are both valid until one of
-- them is typed: a late mail's code still works (8 digits, 30 wrong codes a booking: a guess
-- succeeds with probability 6 × 10⁻⁷).
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
  src internal.booking_sources;
  n integer;
  total integer;
  oldest timestamptz;
  refused_code text;
  refused_detail text;
begin
  perform internal.require_writable();
  perform pg_advisory_xact_lock(hashtextextended('confirm_guest_booking:' || caller, 0));
  select count(*), min(f.failed_at) into n, oldest
    from internal.confirmation_failures f
   where f.client_key = caller and f.failed_at > now() - interval '1 hour';
  if n >= 300 then
    perform internal.fail('rate_limited', json_build_object('limit', 300, 'scope', 'address',
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
    insert into internal.confirmation_failures (client_key, booking_id) values (caller, b.id);
    return jsonb_build_object('confirmed', false, 'reason', 'invalid_confirmation_code');
  end if;

  if b.contact_confirmed_at is null then
    if internal.expire_lapsed_bookings(only_booking => b.id) > 0 or b.status = 'expired' then
      select x.* into b from public.bookings x where x.id = b.id;
      if b.status_reason = 'car_unavailable' then
        return jsonb_build_object('confirmed', false, 'reason', 'car_unavailable',
          'booking', internal.booking_public_json(b));
      end if;
      return jsonb_build_object('confirmed', false, 'reason', 'booking_expired');
    end if;
    if b.status <> 'pending' then
      return jsonb_build_object('confirmed', false, 'reason', 'invalid_status_transition');
    end if;
    select count(*) filter (where f.client_key = caller and f.failed_at >= c.last_sent_at),
           count(*)
      into n, total
      from internal.confirmation_failures f
     where f.booking_id = b.id;
    if n >= 5 or total >= 30 then
      return jsonb_build_object('confirmed', false, 'reason', 'confirmation_attempts_exceeded');
    end if;
  end if;

  if internal.confirmation_code_hash(b.id, given) <> c.code_hash
     and internal.confirmation_code_hash(b.id, given) is distinct from c.previous_code_hash then
    insert into internal.confirmation_failures (client_key, booking_id) values (caller, b.id);
    return jsonb_build_object('confirmed', false, 'reason', 'invalid_confirmation_code');
  end if;

  if b.contact_confirmed_at is null then
    select x.* into src from internal.booking_sources x where x.booking_id = b.id;
    begin
      perform internal.check_hold_limits(b.id, true,
        coalesce(src.mailbox, internal.email_key(b.guest_email)), src.client_key,
        b.start_at, b.end_at);
    exception when sqlstate 'P0001' then
      get stacked diagnostics refused_code = message_text, refused_detail = pg_exception_detail;
      return jsonb_build_object('confirmed', false, 'reason', refused_code,
        'detail', refused_detail::jsonb);
    end;
    begin
      update public.bookings x set contact_confirmed_at = now() where x.id = b.id returning x.* into b;
    exception when exclusion_violation then
      update public.bookings x
         set status = 'expired', status_reason = 'car_unavailable'
       where x.id = b.id
      returning x.* into b;
      return jsonb_build_object('confirmed', false, 'reason', 'car_unavailable',
        'booking', internal.booking_public_json(b));
    end;
    update internal.guest_confirmations x set confirmed_at = now() where x.booking_id = b.id;
    perform internal.enqueue_guest_mail(b, 'booking_received');
  end if;
  return jsonb_build_object('confirmed', true, 'booking', internal.booking_public_json(b));
end
$$;


-- Mails a new confirmation code for an unconfirmed guest booking; the booking's id (generated on
-- the device that made it) is the proof. Three resends, a minute apart — no wait when the latest
-- code could not be sent. The code before the new one stays valid. When the new code's mail is
-- dropped ({"sent": false, "reason": "mail_rate_limited"}), the current codes stay as they were.
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
  if c.mail_sent and c.last_sent_at > now() - interval '1 minute' then
    return jsonb_build_object('sent', false, 'reason', 'resend_limited',
      'resends_left', 4 - c.sends, 'retry_after', c.last_sent_at + interval '1 minute');
  end if;

  new_code := internal.new_confirmation_code();
  if not internal.enqueue_guest_mail(b, 'guest_confirmation', new_code) then
    -- The codes already sent stay valid, and so does what the booking says of them.
    update internal.guest_confirmations x set mail_sent = c.mail_sent where x.booking_id = b.id;
    return jsonb_build_object('sent', false, 'reason', 'mail_rate_limited');
  end if;
  update internal.guest_confirmations x
     set previous_code_hash = case when c.mail_sent then x.code_hash else x.previous_code_hash end,
         code_hash = internal.confirmation_code_hash(b.id, new_code),
         sends = x.sends + 1,
         last_sent_at = now(),
         mail_sent = true
   where x.booking_id = b.id
  returning 4 - x.sends into left_after;
  return jsonb_build_object('sent', true, 'confirm_by', b.confirm_by, 'resends_left', left_after);
end
$$;

-- Staff confirm a guest's contact themselves (after a call, when no code reached the guest): the
-- booking then holds its car and waits for the agency's answer like a confirmed one, and the
-- guest gets the "request received" mail. The fleet limits of a source do not apply (staff
-- decide); the car does: a proven booking of the same dates first → car_unavailable. Errors
-- (P0001): not_allowed (staff only), not_found, already_confirmed, booking_expired (the deadline
-- passed), invalid_status_transition (not pending any more). Answers the stored booking.
create or replace function public.staff_confirm_guest_contact(booking_id uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  b public.bookings;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  select x.* into b from public.bookings x
   where x.id = staff_confirm_guest_contact.booking_id and x.user_id is null
     for update;
  if not found then
    perform internal.fail('not_found', coalesce(staff_confirm_guest_contact.booking_id::text, 'booking_id'));
  end if;
  if b.contact_confirmed_at is not null then
    perform internal.fail('already_confirmed', b.reference);
  end if;
  if internal.expire_lapsed_bookings(only_booking => b.id) > 0 or b.status = 'expired' then
    perform internal.fail('booking_expired', b.reference);
  end if;
  if b.status <> 'pending' then
    perform internal.fail('invalid_status_transition', b.status || ' → confirmed contact');
  end if;
  begin
    update public.bookings x set contact_confirmed_at = now() where x.id = b.id returning x.* into b;
  exception when exclusion_violation then
    perform internal.fail('car_unavailable', b.car_id::text);
  end;
  update internal.guest_confirmations x set confirmed_at = now() where x.booking_id = b.id;
  insert into public.booking_events (booking_id, status, reason, actor, actor_id)
  values (b.id, b.status, 'contact_confirmed_by_staff', 'staff', auth.uid());
  perform internal.enqueue_guest_mail(b, 'booking_received');
  return internal.booking_json(b);
end
$$;

-- Staff give a guest more time to type the code: the deadline becomes now + `minutes` (15 to
-- 1440), never earlier than it was. Errors (P0001): not_allowed, not_found, already_confirmed,
-- booking_expired, invalid_status_transition, invalid_extension (minutes out of range). The
-- guest's device reads the new deadline on its next refresh.
create or replace function public.staff_extend_confirmation(booking_id uuid, minutes integer)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  b public.bookings;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  if minutes is null or minutes < 15 or minutes > 1440 then
    perform internal.fail('invalid_extension', 'minutes between 15 and 1440');
  end if;
  select x.* into b from public.bookings x
   where x.id = staff_extend_confirmation.booking_id and x.user_id is null
     for update;
  if not found then
    perform internal.fail('not_found', coalesce(staff_extend_confirmation.booking_id::text, 'booking_id'));
  end if;
  if b.contact_confirmed_at is not null then
    perform internal.fail('already_confirmed', b.reference);
  end if;
  if internal.expire_lapsed_bookings(only_booking => b.id) > 0 or b.status = 'expired' then
    perform internal.fail('booking_expired', b.reference);
  end if;
  if b.status <> 'pending' then
    perform internal.fail('invalid_status_transition', b.status || ' → extended');
  end if;
  update public.bookings x
     set confirm_by = greatest(x.confirm_by, now() + make_interval(mins => minutes))
   where x.id = b.id
  returning x.* into b;
  insert into public.booking_events (booking_id, status, reason, actor, actor_id)
  values (b.id, b.status, 'confirmation_extended', 'staff', auth.uid());
  return internal.booking_json(b);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
-- The agency tunes its limits (the settings policy restricts updates to admins).
grant update (max_code_mails_per_address_hour, max_code_mails_per_address_day)
  on table public.settings to authenticated;

revoke all on function internal.enqueue_mail(text, text, text, uuid, text, text, boolean) from public;
revoke all on function internal.enqueue_guest_mail(public.bookings, text, text) from public;
revoke all on function internal.booking_public_json(public.bookings) from public;
revoke all on function public.confirm_guest_booking(text, text) from public, anon, authenticated;
revoke all on function public.resend_guest_confirmation(uuid) from public, anon, authenticated;
revoke all on function public.staff_confirm_guest_contact(uuid) from public, anon, authenticated;
revoke all on function public.staff_extend_confirmation(uuid, integer) from public, anon, authenticated;
grant execute on function public.confirm_guest_booking(text, text) to anon, authenticated, service_role;
grant execute on function public.resend_guest_confirmation(uuid) to anon, authenticated, service_role;
grant execute on function public.staff_confirm_guest_contact(uuid) to authenticated;
grant execute on function public.staff_extend_confirmation(uuid, integer) to authenticated;
