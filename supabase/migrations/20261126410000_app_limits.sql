-- One home per limit (issue 21): every length and size limit the app and the database both
-- enforce is read from internal.app_limit(name), the SQL twin of src/domain/limits.ts;
-- tests/api/limits.test.ts holds the two equal, each at its maximum and one past it.
-- A guest's name is now at most 100 characters, as the app and a profile's name (it was 120 here).

create function internal.app_limit(name text)
returns integer
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  value integer := case name
    when 'name' then 100             -- a person's name: profile full name, guest name (trimmed)
    when 'address' then 200          -- a profile's postal address
    when 'email' then 254            -- an e-mail address (RFC 5321)
    when 'age_min' then 18
    when 'age_max' then 120
    when 'text' then 500             -- additional requests, a staff member's reason
    when 'rental_days' then 90       -- the longest rental
    when 'upload_bytes' then 5242880 -- a booking file or car photo (the buckets' limit)
  end;
begin
  if value is null then
    raise exception 'unknown limit %', name using errcode = '22023';
  end if;
  return value;
end
$$;

-- Constraints call it as the writing role (a customer editing their profile): only EXECUTE is
-- checked when a stored constraint runs, not USAGE on the schema.
revoke all on function internal.app_limit(text) from public;
grant execute on function internal.app_limit(text)
  to anon, authenticated, service_role, supabase_auth_admin;

alter table public.bookings
  drop constraint bookings_guest_name_length,
  add constraint bookings_guest_name_length check (
    char_length(trim(guest_name)) >= 1
    and char_length(trim(guest_name)) <= internal.app_limit('name')),
  drop constraint bookings_additional_requests_length,
  add constraint bookings_additional_requests_length check (
    char_length(additional_requests) <= internal.app_limit('text')),
  drop constraint bookings_status_reason_length,
  add constraint bookings_status_reason_length check (
    char_length(status_reason) <= internal.app_limit('text')),
  drop constraint bookings_at_most_90_days,
  add constraint bookings_at_most_90_days check (
    end_at - start_at <= make_interval(days => internal.app_limit('rental_days'))),
  drop constraint bookings_guest_email_format,
  add constraint bookings_guest_email_format check (
    char_length(guest_email) <= internal.app_limit('email')
    and guest_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$');

alter table public.profiles
  drop constraint profiles_full_name_length,
  add constraint profiles_full_name_length check (
    char_length(full_name) <= internal.app_limit('name')),
  drop constraint profiles_address_length,
  add constraint profiles_address_length check (
    char_length(address) >= 1 and char_length(address) <= internal.app_limit('address')),
  drop constraint profiles_age_adult,
  add constraint profiles_age_adult check (
    age >= internal.app_limit('age_min') and age <= internal.app_limit('age_max'));

-- The copies of a staff member's reason the history and the notifications keep.
alter table public.booking_events
  drop constraint booking_events_reason_length,
  add constraint booking_events_reason_length check (
    char_length(reason) <= internal.app_limit('text'));

alter table public.notifications
  drop constraint notifications_reason_length,
  add constraint notifications_reason_length check (
    char_length(reason) <= internal.app_limit('text'));

update storage.buckets
   set file_size_limit = internal.app_limit('upload_bytes')
 where id in ('licenses', 'flight-documents', 'cars');

-- The functions that check the same limits, as they were, reading them from app_limit.
CREATE OR REPLACE FUNCTION internal.profile_field_problem(meta jsonb, field text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  raw jsonb := meta -> field;
  v text;
begin
  if raw is null or jsonb_typeof(raw) = 'null' then
    return case when field = 'locale' then null else 'required' end;
  end if;
  if jsonb_typeof(raw) not in ('string', 'number') then
    return 'format';
  end if;
  v := trim(meta ->> field);
  if v = '' then
    return case when field = 'locale' then 'format' else 'required' end;
  end if;
  if internal.has_hidden_characters(v) then
    return 'control_characters';
  end if;
  case field
    when 'name' then
      if char_length(v) > internal.app_limit('name') then return 'too_long'; end if;
    when 'address' then
      if char_length(v) > internal.app_limit('address') then return 'too_long'; end if;
    when 'phone' then
      if internal.normalize_phone(v) is null then return 'format'; end if;
    when 'age' then
      if v !~ '^[0-9]{1,3}$' then return 'format'; end if;
      if v::integer < internal.app_limit('age_min') then return 'under_age'; end if;
      if v::integer > internal.app_limit('age_max') then return 'too_old'; end if;
    when 'locale' then
      if v not in ('fr', 'en', 'ar') then return 'format'; end if;
    else
      null;
  end case;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION internal.check_profile_text()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  problem text;
begin
  if new.full_name <> '' then
    problem := internal.profile_field_problem(jsonb_build_object('name', new.full_name), 'name');
    if problem is not null then
      perform internal.fail('invalid_name', 'full_name: ' || problem);
    end if;
    new.full_name := trim(new.full_name);
  end if;
  if new.phone is not null then
    if internal.normalize_phone(new.phone) is null then
      perform internal.fail('invalid_phone', 'phone: format');
    end if;
    new.phone := internal.normalize_phone(new.phone);
  end if;
  if new.address is not null then
    problem := internal.profile_field_problem(jsonb_build_object('address', new.address), 'address');
    if problem is not null then
      perform internal.fail('invalid_address', 'address: ' || problem);
    end if;
    new.address := trim(new.address);
  end if;
  if new.age is not null and (new.age < internal.app_limit('age_min') or new.age > internal.app_limit('age_max')) then
    perform internal.fail('invalid_age', 'age: ' || case when new.age < internal.app_limit('age_min') then 'under_age' else 'too_old' end);
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION internal.booking_draft(p jsonb, uid uuid)
 RETURNS internal.booking_draft
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
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
  if d.end_at - d.start_at > make_interval(days => internal.app_limit('rental_days')) then
    perform internal.fail('rental_too_long',
      format('a rental lasts at most %s days', internal.app_limit('rental_days')));
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
  if char_length(d.additional_requests) > internal.app_limit('text') then
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
    if char_length(d.guest_name) > internal.app_limit('name') then
      perform internal.fail('invalid_payload',
        format('guest_name is longer than %s characters', internal.app_limit('name')));
    end if;
    if d.guest_name ~ '[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]' then
      perform internal.fail('invalid_name',
        'guest_name contains a control character, a line break or a direction override');
    end if;
    if not internal.is_mailable_address(d.guest_email) then
      perform internal.fail('invalid_email', d.guest_email);
    end if;
    if internal.normalize_phone(d.guest_phone) is null then
      perform internal.fail('invalid_phone', d.guest_phone);
    end if;
    d.guest_phone := internal.normalize_phone(d.guest_phone);
  end if;

  d.license_path := internal.payload_text(p, 'license_path');
  d.from_abroad := internal.payload_boolean(p, 'from_abroad', false);
  d.flight_document_path := internal.payload_text(p, 'flight_document_path');
  return d;
end
$function$;

CREATE OR REPLACE FUNCTION public.staff_set_booking_status(booking_id uuid, status text, reason text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
  if char_length(why) > internal.app_limit('text') then
    perform internal.fail('invalid_payload',
      format('reason is longer than %s characters', internal.app_limit('text')));
  end if;
  update public.bookings x
     set status = target,
         status_reason = why
   where x.id = b.id
  returning x.* into b;
  return internal.booking_json(b);
end
$function$;

CREATE OR REPLACE FUNCTION internal.is_mailable_address(value text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select coalesce(
    char_length(value) <= internal.app_limit('email')
      and value ~ '^[A-Za-z0-9!#$%&''*+/=?^_`{|}~.-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$',
    false)
$function$;
