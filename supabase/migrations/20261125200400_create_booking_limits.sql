-- create_booking that nobody can turn into a weapon (docs/decisions.md, "Public booking that
-- cannot be abused"): the limits per contact, account and client address and the creation rate
-- per caller, in SQL so they hold on hosted Supabase; a booking horizon; clean names and mailable
-- addresses; a guest booking that holds its car only until its confirmation deadline, with the
-- code mailed; idempotency on the client's id that compares the request (a reused id with other
-- content is refused) and answers with the public projection only.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
-- The canonical hash of the request that created each booking (internal.booking_request_hash):
-- a replay of the same id is compared with it. Bookings created before it have none (their
-- replays are answered as before).
create table internal.booking_requests (
  booking_id uuid primary key references public.bookings (id) on delete cascade,
  request_hash text not null,
  created_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table internal.booking_requests
  add constraint booking_requests_hash_format check (request_hash ~ '^[0-9a-f]{64}$');

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- The request as create_booking reads it, in one canonical form (sha256 of its jsonb text): who
-- asks (the account, or a guest), the reference, car, instants (UTC), places, driver option,
-- files, from_abroad, requests (trimmed), extras and insurance as sets, the guest's contact
-- (normalised) and the locale. What the server ignores (status, price, notes…) is not part of it.
create or replace function internal.booking_request_hash(p jsonb, uid uuid)
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  starts timestamptz := internal.payload_instant(p, 'start_at');
  ends timestamptz := internal.payload_instant(p, 'end_at');
  phone text := nullif(trim(internal.payload_text(p, 'guest_phone')), '');
begin
  return encode(extensions.digest(jsonb_build_object(
    'owner', uid,
    'reference', internal.payload_text(p, 'reference'),
    'car_id', internal.payload_uuid(p, 'car_id'),
    'start_at', to_char(starts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    'end_at', to_char(ends at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    'pickup_location_id', internal.payload_uuid(p, 'pickup_location_id'),
    'dropoff_location_id', internal.payload_uuid(p, 'dropoff_location_id'),
    'driver_option', internal.payload_text(p, 'driver_option'),
    'license_path', internal.payload_text(p, 'license_path'),
    'flight_document_path', internal.payload_text(p, 'flight_document_path'),
    'from_abroad', internal.payload_boolean(p, 'from_abroad', false),
    'additional_requests', nullif(trim(internal.payload_text(p, 'additional_requests')), ''),
    'extras', to_jsonb(array(
      select distinct e from unnest(internal.payload_codes(p, 'extras')) e order by 1)),
    'insurance', to_jsonb(array(
      select distinct e
        from unnest(array['civil_liability'] || internal.payload_codes(p, 'insurance')) e
       order by 1)),
    'guest_name', case when uid is null
      then nullif(trim(internal.payload_text(p, 'guest_name')), '') end,
    'guest_phone', case when uid is null
      then coalesce(internal.normalize_phone(phone), phone) end,
    'guest_email', case when uid is null
      then lower(nullif(trim(internal.payload_text(p, 'guest_email')), '')) end,
    'locale', coalesce(internal.payload_text(p, 'locale'), 'fr')
  )::text, 'sha256'), 'hex');
end
$$;

-- What create_booking answers for an id it has stored already: the public projection, when the
-- request is the same as the one that created it (an outbox replay); idempotency_key_reused when
-- the same id comes with other content; not_allowed when the id is another customer's booking.
create or replace function internal.replay_booking(b public.bookings, request_hash text)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  stored_hash text;
begin
  if b.user_id is not null and b.user_id is distinct from auth.uid() then
    perform internal.fail('not_allowed', 'this booking id belongs to another customer');
  end if;
  select r.request_hash into stored_hash from internal.booking_requests r where r.booking_id = b.id;
  if stored_hash is not null and stored_hash <> replay_booking.request_hash then
    perform internal.fail('idempotency_key_reused',
      'booking ' || b.id || ' was created with other content; a new booking needs a new id');
  end if;
  return internal.booking_public_json(b);
end
$$;

-- A limit reached: the stable code, and in `detail` a JSON object with the limit and, when the
-- server knows it, the instant (UTC) after which the same request can succeed.
create or replace function internal.fail_limit(code text, max_allowed integer, retry_after timestamptz)
returns void
language plpgsql
set search_path = ''
as $$
begin
  perform internal.fail(code, json_build_object(
    'limit', max_allowed,
    'retry_after', to_char(retry_after at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
  )::text);
end
$$;

-- The limits on who may hold cars (settings; docs/decisions.md, "Who may hold the fleet"), checked under
-- advisory locks so that concurrent calls of one caller count each other:
-- - a customer: pending bookings of the account (too_many_pending_for_account), bookings created
--   in the last hour (booking_rate_limited);
-- - a guest: pending bookings with the same email or phone (too_many_pending_for_contact);
--   unconfirmed holds from the client address (too_many_pending_from_address) and unconfirmed
--   guest bookings created from it in the last hour (booking_rate_limited) — a confirmed contact
--   never counts against its address; without a known address, no address limit.
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
    select count(*), min(b.created_at) into n, soonest
      from public.bookings b
     where b.user_id = uid and b.created_at > now() - interval '1 hour';
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
  select count(*), min(c.created_at) into n, soonest
    from internal.guest_confirmations c
   where c.client_key = caller_key
     and c.confirmed_at is null
     and c.created_at > now() - interval '1 hour';
  if n >= per_hour then
    perform internal.fail_limit('booking_rate_limited', per_hour,
      soonest + interval '1 hour');
  end if;
end
$$;

-- Stores a booking (status pending) after checking every rule again (docs/database.md for the
-- order of the checks). Idempotent on p.id: the same id with the same request returns the same
-- answer; with another request, idempotency_key_reused. A guest booking holds its car until
-- confirm_by (settings.guest_hold_minutes from now) unless the guest confirms the contact with
-- the mailed code. Answers with the booking's public projection (internal.booking_public_json).
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
  s public.settings;
  new_id uuid;
  request_hash text;
  stored public.bookings;
  ref text;
  starts timestamptz;
  ends timestamptz;
  car uuid;
  pickup uuid;
  dropoff uuid;
  driver text;
  chosen_extras text[];
  chosen_insurance text[];
  requests text;
  abroad boolean;
  licence text;
  flight text;
  g_name text;
  g_phone text;
  g_email text;
  lang text;
  horizon integer;
  caller_key text;
  code text;
  price jsonb;
  failed_constraint text;
begin
  if p is null or jsonb_typeof(p) <> 'object' then
    perform internal.fail('invalid_payload', 'the payload must be a JSON object');
  end if;
  new_id := internal.payload_uuid(p, 'id');
  if new_id is null then
    perform internal.fail('invalid_payload', 'id is required');
  end if;
  request_hash := internal.booking_request_hash(p, uid);

  select b.* into stored from public.bookings b where b.id = new_id;
  if found then
    return internal.replay_booking(stored, request_hash);
  end if;

  select x.* into s from public.settings x where x.id = 1;

  ref := internal.payload_text(p, 'reference');
  if ref is null or ref !~ '^KR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$' then
    perform internal.fail('invalid_reference', coalesce(ref, 'reference is required'));
  end if;

  starts := internal.payload_instant(p, 'start_at');
  ends := internal.payload_instant(p, 'end_at');
  if starts is null or ends is null then
    perform internal.fail('invalid_dates', 'start_at and end_at are required');
  end if;
  if ends <= starts then
    perform internal.fail('invalid_dates', 'end_at must be after start_at');
  end if;
  if starts <= now() then
    perform internal.fail('dates_in_past', 'start_at must be in the future');
  end if;
  if ends - starts > interval '90 days' then
    perform internal.fail('rental_too_long', 'a rental lasts at most 90 days');
  end if;
  horizon := coalesce(s.booking_horizon_days, 365);
  if starts > now() + make_interval(days => horizon) then
    perform internal.fail('booking_too_far_ahead', json_build_object(
      'max_days', horizon,
      'latest_start', to_char((now() + make_interval(days => horizon)) at time zone 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS"Z"')
    )::text);
  end if;

  car := internal.payload_uuid(p, 'car_id');
  pickup := internal.payload_uuid(p, 'pickup_location_id');
  dropoff := internal.payload_uuid(p, 'dropoff_location_id');
  if pickup is null then
    perform internal.fail('location_not_found', 'pickup_location_id is required');
  end if;
  if dropoff is null then
    perform internal.fail('location_not_found', 'dropoff_location_id is required');
  end if;
  driver := internal.payload_text(p, 'driver_option');
  chosen_extras := internal.payload_codes(p, 'extras');
  -- Civil liability is part of every booking; codes are a set, kept in first-seen order.
  chosen_insurance := array(
    select i.c
      from unnest(array['civil_liability'] || internal.payload_codes(p, 'insurance'))
        with ordinality as i(c, n)
     group by i.c
     order by min(i.n)
  );

  -- Car, locations, driver option, extras and insurance: the pricing function checks them.
  price := internal.price_booking(car, starts, ends, pickup, dropoff, driver, chosen_extras,
    chosen_insurance);

  requests := nullif(trim(internal.payload_text(p, 'additional_requests')), '');
  if char_length(requests) > 500 then
    perform internal.fail('additional_requests_too_long', char_length(requests) || ' characters');
  end if;

  if internal.payload_text(p, 'payment_method') is distinct from null
     and internal.payload_text(p, 'payment_method') <> 'cash' then
    perform internal.fail('invalid_payload', 'payment_method must be cash');
  end if;

  lang := coalesce(internal.payload_text(p, 'locale'), 'fr');
  if lang not in ('fr', 'en', 'ar') then
    perform internal.fail('invalid_payload', 'locale must be fr, en or ar');
  end if;

  if uid is null then
    g_name := nullif(trim(internal.payload_text(p, 'guest_name')), '');
    g_phone := nullif(trim(internal.payload_text(p, 'guest_phone')), '');
    g_email := nullif(trim(internal.payload_text(p, 'guest_email')), '');
    if g_name is null or g_phone is null or g_email is null then
      perform internal.fail('guest_contact_required', concat_ws(', ',
        case when g_name is null then 'guest_name' end,
        case when g_phone is null then 'guest_phone' end,
        case when g_email is null then 'guest_email' end));
    end if;
    if char_length(g_name) > 120 then
      perform internal.fail('invalid_payload', 'guest_name is longer than 120 characters');
    end if;
    if g_name ~ '[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]' then
      perform internal.fail('invalid_name',
        'guest_name contains a control character, a line break or a direction override');
    end if;
    if not internal.is_mailable_address(g_email) then
      perform internal.fail('invalid_email', g_email);
    end if;
    g_phone := coalesce(internal.normalize_phone(g_phone), g_phone);
    if g_phone !~ '^\+[0-9]{8,15}$' then
      perform internal.fail('invalid_phone', g_phone);
    end if;
  end if;

  licence := internal.payload_text(p, 'license_path');
  if not internal.booking_file_exists('licenses', new_id, licence) then
    perform internal.fail('licence_required', coalesce(licence, 'license_path is required'));
  end if;

  abroad := internal.payload_boolean(p, 'from_abroad', false);
  flight := internal.payload_text(p, 'flight_document_path');
  if (abroad or flight is not null)
     and not internal.booking_file_exists('flight-documents', new_id, flight) then
    perform internal.fail('flight_document_required',
      coalesce(flight, 'flight_document_path is required'));
  end if;

  -- The limits (the service role, staff tooling, has none).
  if not is_service then
    caller_key := internal.client_address_key();
    perform internal.check_booking_limits(uid, g_email, g_phone, caller_key);
    -- The same id may have been stored by a concurrent call of this caller while it waited.
    select b.* into stored from public.bookings b where b.id = new_id;
    if found then
      return internal.replay_booking(stored, request_hash);
    end if;
  end if;

  select b.* into stored from public.bookings b where b.reference = ref;
  if found then
    if stored.id = new_id then
      -- The same booking, stored by a concurrent call since we looked.
      return internal.replay_booking(stored, request_hash);
    end if;
    perform internal.fail('reference_taken', ref);
  end if;

  -- Unconfirmed guest bookings of this car past their deadline free it now (expired here, in
  -- this transaction, whether or not the periodic expiry ran).
  perform internal.expire_lapsed_bookings(only_car => car, only_period => tstzrange(starts, ends, '[)'));

  begin
    insert into public.bookings (
      id, reference, user_id, guest_name, guest_phone, guest_email, car_id, start_at, end_at,
      pickup_location_id, dropoff_location_id, driver_option, license_path, flight_document_path,
      from_abroad, additional_requests, extras, insurance, payment_method, payment_status, price,
      total_dzd, status, locale, confirm_by
    ) values (
      new_id, ref, uid, g_name, g_phone, g_email, car, starts, ends,
      pickup, dropoff, driver, licence, flight,
      abroad, requests, chosen_extras, chosen_insurance, 'cash', 'unpaid', price,
      (price ->> 'total')::integer, 'pending', lang,
      case when uid is null
        then now() + make_interval(mins => coalesce(s.guest_hold_minutes, 45)) end
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
        perform internal.fail('car_unavailable', car::text);
      elsif failed_constraint = 'bookings_reference_key' then
        perform internal.fail('reference_taken', ref);
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

-- The old replay answer (the whole row) is gone with the create_booking above.
drop function internal.replayed_booking(public.bookings);

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
alter table internal.booking_requests enable row level security;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on table internal.booking_requests from public;

revoke all on function internal.booking_request_hash(jsonb, uuid) from public;
revoke all on function internal.replay_booking(public.bookings, text) from public;
revoke all on function internal.fail_limit(text, integer, timestamptz) from public;
revoke all on function internal.check_booking_limits(uuid, text, text, text) from public;
