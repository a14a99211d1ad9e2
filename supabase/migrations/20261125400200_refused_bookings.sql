-- A booking refused when it reaches the server is told by the server (docs/decisions.md,
-- "Refused at sync"). A booking queued offline can be refused when the device sends it (the car
-- was taken meanwhile); create_booking's raise rolls everything back, so the device reports it
-- with report_refused_booking(p), the very payload it sent. The server trusts nothing the device
-- says about the refusal: it runs create_booking itself on the payload (in a subtransaction it
-- always undoes), records a refusal once per booking id, mails the contact and notifies a
-- signed-in owner. create_booking's checks are split in two so both RPCs run the same ones: the
-- payload's own form (internal.booking_draft) and what the world decides
-- (internal.check_booking_world).

-- ---------------------------------------------------------------------------------------------
-- Types
-- ---------------------------------------------------------------------------------------------
-- A booking request as create_booking reads it, once its form is checked.
create type internal.booking_draft as (
  id uuid,
  reference text,
  start_at timestamptz,
  end_at timestamptz,
  car_id uuid,
  pickup_location_id uuid,
  dropoff_location_id uuid,
  driver_option text,
  extras text[],
  insurance text[],
  additional_requests text,
  from_abroad boolean,
  license_path text,
  flight_document_path text,
  guest_name text,
  guest_phone text,
  guest_email text,
  locale text
);

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
-- One row per booking id refused at sync and reported: the answer replays give, and what staff
-- and the owner may read. Contacts are kept for the agency (it may call a traveller back) and
-- granted to nobody; the client address for the limits only.
create table public.booking_refusals (
  id uuid primary key,
  reference text not null,
  user_id uuid references public.profiles (id) on delete cascade,
  car_id uuid,
  start_at timestamptz not null,
  end_at timestamptz not null,
  code text not null,
  locale text not null,
  notified boolean not null default false,
  created_at timestamptz not null default now(),
  guest_email text,
  guest_phone text,
  client_key text,
  request_hash text not null
);

comment on table public.booking_refusals is
  'Bookings refused when they reached the server (report_refused_booking); no booking row exists.';

-- ---------------------------------------------------------------------------------------------
-- Functions the constraints call
-- ---------------------------------------------------------------------------------------------
-- The refusal codes that mean "the world changed" (the car was taken, a car, place or option
-- retired, the start passed, the horizon moved) or "the request is refused for good" (its files
-- are not there): recorded and told. Every other refusal raises as create_booking does (limits
-- are transient; a malformed payload is the device's bug).
create or replace function internal.is_final_refusal(code text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(code in (
    'car_unavailable', 'car_not_found', 'location_not_found', 'unknown_extra',
    'unknown_insurance', 'dates_in_past', 'booking_too_far_ahead', 'licence_required',
    'flight_document_required'), false)
$$;

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table public.booking_refusals
  add constraint booking_refusals_reference_format
    check (reference ~ '^KR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$'),
  add constraint booking_refusals_code_final check (internal.is_final_refusal(code)),
  add constraint booking_refusals_locale_known check (locale in ('fr', 'en', 'ar')),
  add constraint booking_refusals_dates_order check (end_at > start_at),
  add constraint booking_refusals_contact
    check (user_id is not null or (guest_email is not null and guest_phone is not null)),
  add constraint booking_refusals_hash_format check (request_hash ~ '^[0-9a-f]{64}$');

create index booking_refusals_user_id_idx on public.booking_refusals (user_id, created_at);
create index booking_refusals_client_key_idx on public.booking_refusals (client_key, created_at);
create index booking_refusals_created_at_idx on public.booking_refusals (created_at);

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- The booking id of a create_booking payload (the idempotency key): invalid_payload unless `p`
-- is an object with a uuid `id`.
create or replace function internal.booking_payload_id(p jsonb)
returns uuid
language plpgsql
immutable
set search_path = ''
as $$
declare
  found_id uuid;
begin
  if p is null or jsonb_typeof(p) <> 'object' then
    perform internal.fail('invalid_payload', 'the payload must be a JSON object');
  end if;
  found_id := internal.payload_uuid(p, 'id');
  if found_id is null then
    perform internal.fail('invalid_payload', 'id is required');
  end if;
  return found_id;
end
$$;

-- The payload's own form, as create_booking reads it (docs/database.md for the order): the
-- reference, the dates (present, ordered, at most 90 days), the places given, the requests, the
-- payment method, the locale and, for a guest (uid null), a complete, clean contact. Raises the
-- stable code of the first problem; nothing here depends on the time or the catalogue.
create or replace function internal.booking_draft(p jsonb, uid uuid)
returns internal.booking_draft
language plpgsql
stable
set search_path = ''
as $$
declare
  d internal.booking_draft;
begin
  d.id := internal.booking_payload_id(p);

  d.reference := internal.payload_text(p, 'reference');
  if d.reference is null or d.reference !~ '^KR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$' then
    perform internal.fail('invalid_reference', coalesce(d.reference, 'reference is required'));
  end if;

  d.start_at := internal.payload_instant(p, 'start_at');
  d.end_at := internal.payload_instant(p, 'end_at');
  if d.start_at is null or d.end_at is null then
    perform internal.fail('invalid_dates', 'start_at and end_at are required');
  end if;
  if d.end_at <= d.start_at then
    perform internal.fail('invalid_dates', 'end_at must be after start_at');
  end if;
  if d.end_at - d.start_at > interval '90 days' then
    perform internal.fail('rental_too_long', 'a rental lasts at most 90 days');
  end if;

  d.car_id := internal.payload_uuid(p, 'car_id');
  d.pickup_location_id := internal.payload_uuid(p, 'pickup_location_id');
  d.dropoff_location_id := internal.payload_uuid(p, 'dropoff_location_id');
  if d.pickup_location_id is null then
    perform internal.fail('location_not_found', 'pickup_location_id is required');
  end if;
  if d.dropoff_location_id is null then
    perform internal.fail('location_not_found', 'dropoff_location_id is required');
  end if;
  d.driver_option := internal.payload_text(p, 'driver_option');
  d.extras := internal.payload_codes(p, 'extras');
  -- Civil liability is part of every booking; codes are a set, kept in first-seen order.
  d.insurance := array(
    select i.c
      from unnest(array['civil_liability'] || internal.payload_codes(p, 'insurance'))
        with ordinality as i(c, n)
     group by i.c
     order by min(i.n)
  );

  d.additional_requests := nullif(trim(internal.payload_text(p, 'additional_requests')), '');
  if char_length(d.additional_requests) > 500 then
    perform internal.fail('additional_requests_too_long',
      char_length(d.additional_requests) || ' characters');
  end if;

  if internal.payload_text(p, 'payment_method') is distinct from null
     and internal.payload_text(p, 'payment_method') <> 'cash' then
    perform internal.fail('invalid_payload', 'payment_method must be cash');
  end if;

  d.locale := coalesce(internal.payload_text(p, 'locale'), 'fr');
  if d.locale not in ('fr', 'en', 'ar') then
    perform internal.fail('invalid_payload', 'locale must be fr, en or ar');
  end if;

  if uid is null then
    d.guest_name := nullif(trim(internal.payload_text(p, 'guest_name')), '');
    d.guest_phone := nullif(trim(internal.payload_text(p, 'guest_phone')), '');
    d.guest_email := nullif(trim(internal.payload_text(p, 'guest_email')), '');
    if d.guest_name is null or d.guest_phone is null or d.guest_email is null then
      perform internal.fail('guest_contact_required', concat_ws(', ',
        case when d.guest_name is null then 'guest_name' end,
        case when d.guest_phone is null then 'guest_phone' end,
        case when d.guest_email is null then 'guest_email' end));
    end if;
    if char_length(d.guest_name) > 120 then
      perform internal.fail('invalid_payload', 'guest_name is longer than 120 characters');
    end if;
    if d.guest_name ~ '[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]' then
      perform internal.fail('invalid_name',
        'guest_name contains a control character, a line break or a direction override');
    end if;
    if not internal.is_mailable_address(d.guest_email) then
      perform internal.fail('invalid_email', d.guest_email);
    end if;
    d.guest_phone := coalesce(internal.normalize_phone(d.guest_phone), d.guest_phone);
    if d.guest_phone !~ '^\+[0-9]{8,15}$' then
      perform internal.fail('invalid_phone', d.guest_phone);
    end if;
  end if;

  d.license_path := internal.payload_text(p, 'license_path');
  d.from_abroad := internal.payload_boolean(p, 'from_abroad', false);
  d.flight_document_path := internal.payload_text(p, 'flight_document_path');
  return d;
end
$$;

-- What the world decides about a well-formed draft, now: the start is in the future by the
-- server's clock and within the horizon, the car, places, driver option, extras and insurance
-- exist and are active (the pricing function checks them), the uploaded files exist. Returns the
-- server's price. (Whether the car is free is the insert's exclusion constraint.)
create or replace function internal.check_booking_world(d internal.booking_draft)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  horizon integer := coalesce(
    (select s.booking_horizon_days from public.settings s where s.id = 1), 365);
  price jsonb;
begin
  if d.start_at <= now() then
    perform internal.fail('dates_in_past', 'start_at must be in the future');
  end if;
  if d.start_at > now() + make_interval(days => horizon) then
    perform internal.fail('booking_too_far_ahead', json_build_object(
      'max_days', horizon,
      'latest_start', to_char((now() + make_interval(days => horizon)) at time zone 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS"Z"')
    )::text);
  end if;

  price := internal.price_booking(d.car_id, d.start_at, d.end_at, d.pickup_location_id,
    d.dropoff_location_id, d.driver_option, d.extras, d.insurance);

  if not internal.booking_file_exists('licenses', d.id, d.license_path) then
    perform internal.fail('licence_required', coalesce(d.license_path, 'license_path is required'));
  end if;
  if (d.from_abroad or d.flight_document_path is not null)
     and not internal.booking_file_exists('flight-documents', d.id, d.flight_document_path) then
    perform internal.fail('flight_document_required',
      coalesce(d.flight_document_path, 'flight_document_path is required'));
  end if;
  return price;
end
$$;

-- The limits on who may hold cars (docs/decisions.md, "Who may hold the fleet"), unchanged but for the hourly
-- rate, which now counts the refusals reported (report_refused_booking) with the bookings made:
-- an account's bookings and refusals in the last hour; an address's unconfirmed guest bookings
-- and guest refusals in the last hour. One budget, so a script cannot alternate the two RPCs.
create or replace function internal.check_booking_limits(
  uid uuid,
  email text,
  phone text,
  caller_key text
)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  email_key text := internal.email_key(email);
  per_account integer;
  per_contact integer;
  per_address integer;
  per_hour integer;
  n integer;
  soonest timestamptz;
  lock_key text;
begin
  select coalesce(max(x.max_pending_per_account), 5), coalesce(max(x.max_pending_per_contact), 3),
         coalesce(max(x.max_unconfirmed_per_address), 10), coalesce(max(x.max_bookings_per_hour), 20)
    into per_account, per_contact, per_address, per_hour
    from public.settings x where x.id = 1;

  if uid is not null then
    perform pg_advisory_xact_lock(hashtextextended('booking_limits:account:' || uid::text, 0));
    select count(*) into n from public.bookings b where b.user_id = uid and b.status = 'pending';
    if n >= per_account then
      perform internal.fail_limit('too_many_pending_for_account', per_account, null);
    end if;
    select count(*), min(x.created_at) into n, soonest
      from (select b.created_at from public.bookings b
             where b.user_id = uid and b.created_at > now() - interval '1 hour'
            union all
            select r.created_at from public.booking_refusals r
             where r.user_id = uid and r.created_at > now() - interval '1 hour') x;
    if n >= per_hour then
      perform internal.fail_limit('booking_rate_limited', per_hour,
        soonest + interval '1 hour');
    end if;
    return;
  end if;

  -- Locks always in this order (address, email, phone): no two callers wait on each other.
  for lock_key in
    select k from unnest(array[
      'booking_limits:1:' || caller_key,
      'booking_limits:2:' || email_key,
      'booking_limits:3:' || phone
    ]) k where k is not null order by k
  loop
    perform pg_advisory_xact_lock(hashtextextended(lock_key, 0));
  end loop;

  select count(*), min(b.confirm_by) filter (where b.contact_confirmed_at is null)
    into n, soonest
    from public.bookings b
   where b.status = 'pending'
     and b.user_id is null
     and (internal.email_key(b.guest_email) = email_key or b.guest_phone = phone)
     and internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at);
  if n >= per_contact then
    perform internal.fail_limit('too_many_pending_for_contact', per_contact, soonest);
  end if;

  if caller_key is null then
    return;
  end if;
  select count(*), min(b.confirm_by) into n, soonest
    from internal.guest_confirmations c
    join public.bookings b on b.id = c.booking_id
   where c.client_key = caller_key
     and b.status = 'pending'
     and b.contact_confirmed_at is null
     and b.confirm_by > now();
  if n >= per_address then
    perform internal.fail_limit('too_many_pending_from_address', per_address, soonest);
  end if;
  select count(*), min(x.created_at) into n, soonest
    from (select c.created_at from internal.guest_confirmations c
           where c.client_key = caller_key
             and c.confirmed_at is null
             and c.created_at > now() - interval '1 hour'
          union all
          select r.created_at from public.booking_refusals r
           where r.client_key = caller_key
             and r.user_id is null
             and r.created_at > now() - interval '1 hour') x;
  if n >= per_hour then
    perform internal.fail_limit('booking_rate_limited', per_hour,
      soonest + interval '1 hour');
  end if;
end
$$;

-- Stores a booking (status pending) after checking every rule again: the payload's form
-- (internal.booking_draft), what the world decides (internal.check_booking_world), the limits,
-- the reference, the car's availability (the exclusion constraint). Idempotent on p.id: the same
-- id with the same request returns the same answer; with another request,
-- idempotency_key_reused. A guest booking holds its car until confirm_by
-- (settings.guest_hold_minutes from now) unless the guest confirms the contact with the mailed
-- code. Answers with the booking's public projection (internal.booking_public_json).
create or replace function public.create_booking(p jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  is_service boolean := coalesce(auth.role(), '') = 'service_role';
  d internal.booking_draft;
  new_id uuid;
  request_hash text;
  stored public.bookings;
  caller_key text;
  code text;
  price jsonb;
  failed_constraint text;
begin
  new_id := internal.booking_payload_id(p);
  request_hash := internal.booking_request_hash(p, uid);

  select b.* into stored from public.bookings b where b.id = new_id;
  if found then
    return internal.replay_booking(stored, request_hash);
  end if;

  d := internal.booking_draft(p, uid);
  price := internal.check_booking_world(d);

  -- The limits (the service role, staff tooling, has none).
  if not is_service then
    caller_key := internal.client_address_key();
    perform internal.check_booking_limits(uid, d.guest_email, d.guest_phone, caller_key);
    -- The same id may have been stored by a concurrent call of this caller while it waited.
    select b.* into stored from public.bookings b where b.id = new_id;
    if found then
      return internal.replay_booking(stored, request_hash);
    end if;
  end if;

  select b.* into stored from public.bookings b where b.reference = d.reference;
  if found then
    if stored.id = new_id then
      -- The same booking, stored by a concurrent call since we looked.
      return internal.replay_booking(stored, request_hash);
    end if;
    perform internal.fail('reference_taken', d.reference);
  end if;

  -- Unconfirmed guest bookings of this car past their deadline free it now (expired here, in
  -- this transaction, whether or not the periodic expiry ran).
  perform internal.expire_lapsed_bookings(only_car => d.car_id,
    only_period => tstzrange(d.start_at, d.end_at, '[)'));

  begin
    insert into public.bookings (
      id, reference, user_id, guest_name, guest_phone, guest_email, car_id, start_at, end_at,
      pickup_location_id, dropoff_location_id, driver_option, license_path, flight_document_path,
      from_abroad, additional_requests, extras, insurance, payment_method, payment_status, price,
      total_dzd, status, locale, confirm_by
    ) values (
      new_id, d.reference, uid, d.guest_name, d.guest_phone, d.guest_email, d.car_id, d.start_at,
      d.end_at, d.pickup_location_id, d.dropoff_location_id, d.driver_option, d.license_path,
      d.flight_document_path, d.from_abroad, d.additional_requests, d.extras, d.insurance, 'cash',
      'unpaid', price, (price ->> 'total')::integer, 'pending', d.locale,
      case when uid is null
        then now() + make_interval(mins => coalesce(
          (select s.guest_hold_minutes from public.settings s where s.id = 1), 45)) end
    )
    on conflict (id) do nothing
    returning * into stored;
  exception
    when exclusion_violation or unique_violation then
      -- A concurrent call with the same id may have committed it while this insert waited on
      -- that row: then it is the same booking, not a conflict.
      get stacked diagnostics failed_constraint = constraint_name;
      select b.* into stored from public.bookings b where b.id = new_id;
      if found then
        return internal.replay_booking(stored, request_hash);
      end if;
      if failed_constraint = 'bookings_no_overlap' then
        perform internal.fail('car_unavailable', d.car_id::text);
      elsif failed_constraint = 'bookings_reference_key' then
        perform internal.fail('reference_taken', d.reference);
      end if;
      raise;
  end;

  if stored.id is null then
    -- The same id arrived twice at once and the other call stored it first.
    select b.* into stored from public.bookings b where b.id = new_id;
    return internal.replay_booking(stored, request_hash);
  end if;

  insert into internal.booking_requests (booking_id, request_hash) values (stored.id, request_hash);
  if uid is null then
    code := internal.new_confirmation_code();
    insert into internal.guest_confirmations (booking_id, code_hash, client_key)
    values (stored.id, internal.confirmation_code_hash(stored.id, code), caller_key);
    perform internal.enqueue_guest_mail(stored, 'guest_confirmation', code);
  end if;
  return internal.booking_public_json(stored);
end
$$;

-- The answer to a refusal already recorded (a replay): the same, to the same caller with the
-- same request; not_allowed when it is another customer's; idempotency_key_reused when the
-- request differs.
create or replace function internal.replay_refusal(r public.booking_refusals, request_hash text)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  if r.user_id is not null and r.user_id is distinct from auth.uid() then
    perform internal.fail('not_allowed', 'this booking id belongs to another customer');
  end if;
  if r.request_hash <> replay_refusal.request_hash then
    perform internal.fail('idempotency_key_reused',
      'booking ' || r.id || ' was reported with other content; a new booking needs a new id');
  end if;
  return jsonb_build_object('status', 'refused', 'reference', r.reference, 'code', r.code,
    'notified', r.notified);
end
$$;

-- The mail telling the contact that the request `d` was refused with `code`: only the agency's
-- words (the address is not confirmed), the reference, the reason in words and what to do, with
-- a link to the catalogue built from settings.site_url — nothing the requester typed.
create or replace function internal.refusal_mail(d internal.booking_draft, code text)
returns table (subject text, body_text text)
language plpgsql
stable
set search_path = ''
as $$
declare
  t jsonb := internal.mail_texts(d.locale) || internal.outcome_mail_texts(d.locale);
  site text := (select s.site_url from public.settings s where s.id = 1);
begin
  subject := 'Kiraa · ' || (t ->> 'booking_refused') || ' · ' || d.reference;
  body_text := concat_ws(E'\n',
    t ->> 'greeting',
    '',
    t ->> 'booking_refused_body',
    (t ->> 'reason') || (t ->> ('refused_' || code)),
    (t ->> 'reference') || d.reference,
    '',
    case when site is not null
      then replace(t ->> 'refused_what_to_do', '{link}', site || '/cars')
      else t ->> 'refused_what_to_do_no_link' end,
    '',
    t ->> 'footer'
  );
  return next;
end
$$;

-- Reports a booking the server refused when the device sent it. `p` is the very payload sent to
-- create_booking (same id). Answers:
--   {"status": "created", "booking": <public projection>} — a booking with that id exists;
--   {"status": "refused", "reference", "code", "notified"} — create_booking refuses it now for
--     good (internal.is_final_refusal); recorded once per id, the contact mailed (guest email, or
--     the owner's account address; `notified`: a mail was queued, false when the address had its
--     share of mails) and a signed-in owner notified (booking_refused). Replays answer the same
--     and never mail twice.
-- Raises booking_not_refused when create_booking would accept it now (the client sends create
-- again); otherwise what create_booking raises: a malformed payload, a limit (the same limits,
-- the refusals counting in the hourly rate), not_allowed, idempotency_key_reused.
create or replace function public.report_refused_booking(p jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  is_service boolean := coalesce(auth.role(), '') = 'service_role';
  new_id uuid;
  request_hash text;
  stored public.bookings;
  refusal public.booking_refusals;
  d internal.booking_draft;
  caller_key text;
  refused_code text;
  refused_detail text;
  to_email text;
  m record;
  was_notified boolean := false;
begin
  new_id := internal.booking_payload_id(p);
  request_hash := internal.booking_request_hash(p, uid);

  select b.* into stored from public.bookings b where b.id = new_id;
  if found then
    return jsonb_build_object('status', 'created',
      'booking', internal.replay_booking(stored, request_hash));
  end if;

  -- One report per id at a time: concurrent replays wait and then read the recorded answer.
  perform pg_advisory_xact_lock(hashtextextended('booking_refusal:' || new_id::text, 0));
  select r.* into refusal from public.booking_refusals r where r.id = new_id;
  if found then
    return internal.replay_refusal(refusal, request_hash);
  end if;

  d := internal.booking_draft(p, uid);
  if not is_service then
    caller_key := internal.client_address_key();
    perform internal.check_booking_limits(uid, d.guest_email, d.guest_phone, caller_key);
  end if;

  -- create_booking itself decides, in a subtransaction that is always undone.
  begin
    perform public.create_booking(p);
    raise exception using errcode = 'KR001', message = 'booking_would_be_created';
  exception
    when sqlstate 'KR001' then
      refused_code := null;
    when sqlstate 'P0001' then
      get stacked diagnostics refused_code = message_text, refused_detail = pg_exception_detail;
  end;
  if refused_code is null then
    perform internal.fail('booking_not_refused',
      'create_booking accepts this booking now: send it again');
  end if;
  if not internal.is_final_refusal(refused_code) then
    raise exception using errcode = 'P0001', message = refused_code,
      detail = coalesce(refused_detail, '');
  end if;

  insert into public.booking_refusals (id, reference, user_id, car_id, start_at, end_at, code,
    locale, guest_email, guest_phone, client_key, request_hash)
  values (new_id, d.reference, uid, d.car_id, d.start_at, d.end_at, refused_code, d.locale,
    d.guest_email, d.guest_phone, caller_key, request_hash)
  returning * into refusal;

  if uid is null then
    to_email := d.guest_email;
  else
    select u.email into to_email from auth.users u where u.id = uid;
    insert into public.notifications (user_id, booking_id, type, reference, reason_code)
    values (uid, null, 'booking_refused', d.reference, refused_code);
  end if;
  if to_email is not null then
    select x.subject, x.body_text into m from internal.refusal_mail(d, refused_code) x;
    was_notified := internal.enqueue_mail(to_email, m.subject, m.body_text, new_id, 'booking_refused',
      d.locale, true);
  end if;
  update public.booking_refusals r set notified = was_notified
   where r.id = new_id
  returning * into refusal;
  return internal.replay_refusal(refusal, request_hash);
end
$$;

-- The periodic job (20261125200300_guest_confirmation.sql), which now also forgets refusals
-- older than 30 days (their replays would be refused again by then: the start has passed or is
-- near) and the client addresses of refusals older than a day, like guest bookings'.
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
  update public.booking_refusals r
     set client_key = null
   where r.client_key is not null and r.created_at < now() - interval '1 day';
  delete from public.booking_refusals r where r.created_at < now() - interval '30 days';
  delete from internal.guest_lookup_failures f where f.failed_at < now() - interval '1 day';
  return expired;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
alter table public.booking_refusals enable row level security;

create policy "Customers read their own refusals"
  on public.booking_refusals for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on table public.booking_refusals from public, anon, authenticated;
-- Never the contacts, the client address or the request hash.
grant select (id, reference, user_id, car_id, start_at, end_at, code, locale, notified, created_at)
  on table public.booking_refusals to authenticated;
grant all on table public.booking_refusals to service_role;

revoke all on function internal.is_final_refusal(text) from public;
-- The CHECK runs with the writer's rights: whoever may write refusals directly may run it.
grant execute on function internal.is_final_refusal(text) to service_role;
revoke all on function internal.booking_payload_id(jsonb) from public;
revoke all on function internal.booking_draft(jsonb, uuid) from public;
revoke all on function internal.check_booking_world(internal.booking_draft) from public;
revoke all on function internal.replay_refusal(public.booking_refusals, text) from public;
revoke all on function internal.refusal_mail(internal.booking_draft, text) from public;
revoke all on function public.report_refused_booking(jsonb) from public;
grant execute on function public.report_refused_booking(jsonb) to anon, authenticated;
