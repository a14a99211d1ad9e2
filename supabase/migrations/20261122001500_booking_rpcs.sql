-- The server API (docs/database.md): every booking write goes through these functions, which
-- check every rule of docs/decisions.md again, whatever the client did. Refusals raise SQLSTATE
-- P0001 with a stable code as the message and the details in `detail`. See docs/database.md.

-- ---------------------------------------------------------------------------------------------
-- Functions: helpers
-- ---------------------------------------------------------------------------------------------

-- A phone number as bookings store it: separators (spaces, dashes, dots, brackets) removed.
-- With `lenient`, also 00… → +… and an Algerian national number 0XXXXXXXXX → +213XXXXXXXXX
-- (used to match what a guest types in the lookup). Null when it is not +[8–15 digits].
create or replace function internal.normalize_phone(value text, lenient boolean default false)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v text := regexp_replace(coalesce(value, ''), '[\s.()\-]', '', 'g');
begin
  if lenient then
    if v ~ '^00[0-9]' then
      v := '+' || substr(v, 3);
    elsif v ~ '^0[0-9]{9}$' then
      v := '+213' || substr(v, 2);
    end if;
  end if;
  if v ~ '^\+[0-9]{8,15}$' then
    return v;
  end if;
  return null;
end
$$;

-- A reference as a person may type it (any case, spaces or dashes, with or without KR, I/L for 1
-- and O for 0: Crockford's reading), written the canonical way; null when it cannot be one.
create or replace function internal.normalize_reference(value text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when s ~ '^[0-9A-HJKMNP-TV-Z]{8}$' then 'KR-' || left(s, 4) || '-' || right(s, 4)
  end
  from (
    select translate(regexp_replace(r, '^KR', ''), 'ILO', '110') as s
    from (select regexp_replace(upper(coalesce(value, '')), '[\s_.\-]', '', 'g') as r) x
  ) y
$$;

-- What create_booking answers when the id is already stored (a replay from the outbox): the
-- stored booking, unchanged. A booking that belongs to a signed-in customer is only shown to them.
create or replace function internal.replayed_booking(b public.bookings)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  if b.user_id is not null and b.user_id is distinct from auth.uid() then
    perform internal.fail('not_allowed', 'this booking id belongs to another customer');
  end if;
  return internal.booking_json(b);
end
$$;

-- True when a file exists at `path` in `bucket` and sits in the booking's own folder.
create or replace function internal.booking_file_exists(bucket text, booking_id uuid, path text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select path is not null
    and path ~ ('^' || booking_id::text || '/[^/]+$')
    and exists (select 1 from storage.objects o where o.bucket_id = bucket and o.name = path)
$$;

-- ---------------------------------------------------------------------------------------------
-- Functions: the RPCs
-- ---------------------------------------------------------------------------------------------

-- The price breakdown of a draft (the same payload as create_booking; optional members may be
-- missing: no location yet → no delivery fee, no driver option yet → self). It refuses only what
-- makes a price impossible (docs/pricing.md); the clock and the other rules are create_booking's.
create or replace function public.quote_booking(p jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if p is null or jsonb_typeof(p) <> 'object' then
    perform internal.fail('invalid_payload', 'the payload must be a JSON object');
  end if;
  return internal.price_booking(
    internal.payload_uuid(p, 'car_id'),
    internal.payload_instant(p, 'start_at'),
    internal.payload_instant(p, 'end_at'),
    internal.payload_uuid(p, 'pickup_location_id'),
    internal.payload_uuid(p, 'dropoff_location_id'),
    coalesce(internal.payload_text(p, 'driver_option'), 'self'),
    internal.payload_codes(p, 'extras'),
    internal.payload_codes(p, 'insurance')
  );
end
$$;

-- Stores a booking (status pending) after checking every rule again. Idempotent on p.id: the same
-- id again returns the stored booking unchanged, whatever else the payload says.
create or replace function public.create_booking(p jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  new_id uuid;
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

  select b.* into stored from public.bookings b where b.id = new_id;
  if found then
    return internal.replayed_booking(stored);
  end if;

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
    if char_length(g_email) > 254 or g_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
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

  select b.* into stored from public.bookings b where b.reference = ref;
  if found then
    if stored.id = new_id then
      -- The same booking, stored by a concurrent call since we looked.
      return internal.replayed_booking(stored);
    end if;
    perform internal.fail('reference_taken', ref);
  end if;

  begin
    insert into public.bookings (
      id, reference, user_id, guest_name, guest_phone, guest_email, car_id, start_at, end_at,
      pickup_location_id, dropoff_location_id, driver_option, license_path, flight_document_path,
      from_abroad, additional_requests, extras, insurance, payment_method, payment_status, price,
      total_dzd, status
    ) values (
      new_id, ref, uid, g_name, g_phone, g_email, car, starts, ends,
      pickup, dropoff, driver, licence, flight,
      abroad, requests, chosen_extras, chosen_insurance, 'cash', 'unpaid', price,
      (price ->> 'total')::integer, 'pending'
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
        return internal.replayed_booking(stored);
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
    return internal.replayed_booking(stored);
  end if;
  return internal.booking_json(stored);
end
$$;

-- The customer cancels their own booking while it is pending or reserved. Calling it again on a
-- cancelled booking returns it unchanged (outbox replays). Guests contact the agency instead.
create or replace function public.cancel_booking(booking_id uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  b public.bookings;
begin
  if uid is null then
    perform internal.fail('not_allowed', 'sign in to cancel a booking');
  end if;
  select x.* into b from public.bookings x where x.id = cancel_booking.booking_id for update;
  if not found or b.user_id is distinct from uid then
    perform internal.fail('not_found', coalesce(cancel_booking.booking_id::text, 'booking_id'));
  end if;
  if b.status = 'cancelled' then
    return internal.booking_json(b);
  end if;
  if b.status not in ('pending', 'reserved') then
    perform internal.fail('invalid_status_transition', b.status || ' → cancelled');
  end if;
  update public.bookings x set status = 'cancelled' where x.id = b.id returning x.* into b;
  return internal.booking_json(b);
end
$$;

-- A guest finds their booking with its reference and the email or phone they gave. The same
-- `null` for a wrong reference and a wrong contact; five calls per minute per client address.
create or replace function public.find_guest_booking(reference text, contact text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  headers json;
  caller_ip text;
  ref text := internal.normalize_reference(find_guest_booking.reference);
  given text := trim(coalesce(find_guest_booking.contact, ''));
  phone text;
  b public.bookings;
begin
  begin
    headers := nullif(current_setting('request.headers', true), '')::json;
  exception when others then
    headers := null;
  end;
  caller_ip := coalesce(nullif(trim(split_part(headers ->> 'x-forwarded-for', ',', 1)), ''), 'unknown');

  perform pg_advisory_xact_lock(hashtextextended('find_guest_booking:' || caller_ip, 0));
  delete from internal.guest_lookup_attempts a where a.attempted_at < now() - interval '1 minute';
  if (select count(*) from internal.guest_lookup_attempts a where a.ip = caller_ip) >= 5 then
    perform internal.fail('rate_limited', 'at most 5 lookups per minute');
  end if;
  insert into internal.guest_lookup_attempts (ip) values (caller_ip);

  if ref is null or given = '' then
    return null;
  end if;
  select x.* into b from public.bookings x where x.reference = ref and x.user_id is null;
  if not found then
    return null;
  end if;
  if position('@' in given) > 0 then
    if lower(given) = lower(b.guest_email) then
      return internal.booking_json(b);
    end if;
  else
    phone := internal.normalize_phone(given, true);
    if phone is not null and phone = b.guest_phone then
      return internal.booking_json(b);
    end if;
  end if;
  return null;
end
$$;

-- The customer of a completed booking rates it, once. The same review again (an outbox replay)
-- returns the stored one; a different one is refused with already_reviewed.
create or replace function public.submit_review(booking_id uuid, rating integer, comment text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  b public.bookings;
  r public.reviews;
  body text := nullif(trim(coalesce(submit_review.comment, '')), '');
begin
  if uid is null then
    perform internal.fail('not_allowed', 'sign in to review a booking');
  end if;
  if submit_review.rating is null or submit_review.rating not between 1 and 5 then
    perform internal.fail('invalid_rating', coalesce(submit_review.rating::text, 'rating is required'));
  end if;
  if char_length(body) > 1000 then
    perform internal.fail('comment_too_long', char_length(body) || ' characters');
  end if;

  select x.* into b from public.bookings x where x.id = submit_review.booking_id for update;
  if not found or b.user_id is distinct from uid or b.status <> 'completed' then
    perform internal.fail('review_not_allowed',
      'only the customer of a completed booking may review it');
  end if;

  select x.* into r from public.reviews x where x.booking_id = b.id;
  if found then
    if r.rating = submit_review.rating and r.comment is not distinct from body then
      return to_jsonb(r);
    end if;
    perform internal.fail('already_reviewed', b.id::text);
  end if;

  insert into public.reviews (booking_id, car_id, user_id, rating, comment)
  values (b.id, b.car_id, uid, submit_review.rating, body)
  returning * into r;
  return to_jsonb(r);
end
$$;

-- When each car is taken between "from" and "to": no personal data, only active bookings.
create or replace function public.car_busy_periods("from" timestamptz, "to" timestamptz)
returns table (car_id uuid, start_at timestamptz, end_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if car_busy_periods."from" is null or car_busy_periods."to" is null
     or car_busy_periods."to" <= car_busy_periods."from" then
    perform internal.fail('invalid_dates', '"to" must be after "from"');
  end if;
  if car_busy_periods."to" - car_busy_periods."from" > interval '800 days' then
    perform internal.fail('invalid_dates', 'the window is at most 800 days');
  end if;
  return query
    select b.car_id, b.start_at, b.end_at
      from public.bookings b
     where b.status in ('pending', 'reserved', 'in_progress')
       and b.period && tstzrange(car_busy_periods."from", car_busy_periods."to", '[)')
     order by b.car_id, b.start_at;
end
$$;

-- Staff move a booking through its lifecycle:
--   pending → reserved (accept) | rejected (reject; reason required) | cancelled
--   reserved → in_progress (start) | cancelled
--   in_progress → completed
-- Anything else: invalid_status_transition. The status trigger notifies the customer.
create or replace function public.staff_set_booking_status(booking_id uuid, status text, reason text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  b public.bookings;
  why text := nullif(trim(coalesce(staff_set_booking_status.reason, '')), '');
  target text := staff_set_booking_status.status;
begin
  if not (public.is_admin() or coalesce(auth.role(), '') = 'service_role') then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  select x.* into b from public.bookings x where x.id = staff_set_booking_status.booking_id for update;
  if not found then
    perform internal.fail('not_found', coalesce(staff_set_booking_status.booking_id::text, 'booking_id'));
  end if;
  if target is null or not (
    (b.status = 'pending' and target in ('reserved', 'rejected', 'cancelled'))
    or (b.status = 'reserved' and target in ('in_progress', 'cancelled'))
    or (b.status = 'in_progress' and target = 'completed')
  ) then
    perform internal.fail('invalid_status_transition', b.status || ' → ' || coalesce(target, 'null'));
  end if;
  if target = 'rejected' and why is null then
    perform internal.fail('reason_required', 'a rejection needs a reason');
  end if;
  if char_length(why) > 500 then
    perform internal.fail('invalid_payload', 'reason is longer than 500 characters');
  end if;
  update public.bookings x
     set status = target,
         status_reason = why
   where x.id = b.id
  returning x.* into b;
  return internal.booking_json(b);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function internal.normalize_phone(text, boolean) from public;
revoke all on function internal.normalize_reference(text) from public;
revoke all on function internal.replayed_booking(public.bookings) from public;
revoke all on function internal.booking_file_exists(text, uuid, text) from public;

revoke all on function public.quote_booking(jsonb) from public, anon, authenticated;
revoke all on function public.create_booking(jsonb) from public, anon, authenticated;
revoke all on function public.cancel_booking(uuid) from public, anon, authenticated;
revoke all on function public.find_guest_booking(text, text) from public, anon, authenticated;
revoke all on function public.submit_review(uuid, integer, text) from public, anon, authenticated;
revoke all on function public.car_busy_periods(timestamptz, timestamptz) from public, anon, authenticated;
revoke all on function public.staff_set_booking_status(uuid, text, text) from public, anon, authenticated;

grant execute on function public.quote_booking(jsonb) to anon, authenticated, service_role;
grant execute on function public.create_booking(jsonb) to anon, authenticated, service_role;
grant execute on function public.find_guest_booking(text, text) to anon, authenticated, service_role;
grant execute on function public.car_busy_periods(timestamptz, timestamptz)
  to anon, authenticated, service_role;
grant execute on function public.cancel_booking(uuid) to authenticated, service_role;
grant execute on function public.submit_review(uuid, integer, text) to authenticated, service_role;
grant execute on function public.staff_set_booking_status(uuid, text, text)
  to authenticated, service_role;
