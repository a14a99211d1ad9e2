-- Opening hours of the places (docs/opening-hours.md): each location has pickup/return hours per
-- weekday and closed dates; create_booking refuses a pickup or a return outside them
-- (pickup_outside_hours, return_outside_hours). The device applies the same rule offline
-- (src/domain/opening-hours.ts); tests/api/opening-hours.test.ts holds the two equal.

-- ---------------------------------------------------------------------------------------------
-- Limits
-- ---------------------------------------------------------------------------------------------
-- The same numbers as src/domain/limits.ts; one line added: closed_dates.
create or replace function internal.app_limit(name text)
returns integer
language plpgsql
immutable parallel safe
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
    when 'block_reason' then 300     -- why staff block a car (staff_block_car, car_blocks)
    when 'closed_dates' then 366     -- closed dates of one place (locations.closed_dates)
  end;
begin
  if value is null then
    raise exception 'unknown limit %', name using errcode = '22023';
  end if;
  return value;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Functions (the shape and the rule)
-- ---------------------------------------------------------------------------------------------

-- A week of hours: a JSON array of 7 entries indexed by weekday as extract(dow) and JavaScript's
-- getDay() count it (0 = Sunday … 6 = Saturday); each entry is null (closed that weekday) or
-- [open, close] in minutes after midnight, Algiers time, 0 <= open < close <= 1440.
create or replace function internal.is_opening_hours(hours jsonb)
returns boolean
language sql
immutable parallel safe
set search_path = ''
as $$
  select coalesce(
    jsonb_typeof(hours) = 'array'
    and jsonb_array_length(hours) = 7
    and (
      select bool_and(
        jsonb_typeof(e) = 'null'
        or (
          jsonb_typeof(e) = 'array'
          and jsonb_array_length(e) = 2
          and jsonb_typeof(e -> 0) = 'number'
          and jsonb_typeof(e -> 1) = 'number'
          and (e ->> 0) ~ '^\d+$'
          and (e ->> 1) ~ '^\d+$'
          and (e ->> 0)::numeric < (e ->> 1)::numeric
          and (e ->> 1)::numeric <= 1440
        )
      )
      from jsonb_array_elements(case when jsonb_typeof(hours) = 'array' then hours end) e
    ),
    false)
$$;

-- Whether a place with these hours and closed dates receives a pickup or a return at `at`: the
-- Algiers date is not a closed date, its weekday has hours, and the Algiers time of day lies
-- within them, both ends included (seconds count: 19:00:30 is after a 19:00 close).
create or replace function internal.is_open_at(hours jsonb, closed_dates date[], at timestamptz)
returns boolean
language sql
stable parallel safe
set search_path = ''
as $$
  select not (l.local::date = any (coalesce(closed_dates, '{}')))
     and coalesce(
       jsonb_typeof(hours -> extract(dow from l.local)::integer) = 'array'
       and extract(epoch from l.local::time)
         between (hours -> extract(dow from l.local)::integer ->> 0)::numeric * 60
             and (hours -> extract(dow from l.local)::integer ->> 1)::numeric * 60,
       false)
    from (select at at time zone 'Africa/Algiers' as local) l
$$;

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
alter table public.locations
  add column opening_hours jsonb not null
    default '[[0,1440],[0,1440],[0,1440],[0,1440],[0,1440],[0,1440],[0,1440]]'::jsonb,
  add column closed_dates date[] not null default '{}';

comment on column public.locations.opening_hours is
  'Pickup/return hours per weekday (0 = Sunday): null (closed) or [open, close] minutes after midnight, Algiers time.';
comment on column public.locations.closed_dates is
  'Algiers dates the place is closed (holidays), whatever its weekday hours.';

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table public.locations
  add constraint locations_opening_hours_valid check (internal.is_opening_hours(opening_hours)),
  add constraint locations_closed_dates_bounded check (
    cardinality(closed_dates) <= internal.app_limit('closed_dates')
    and array_position(closed_dates, null) is null
  );

-- ---------------------------------------------------------------------------------------------
-- Functions (the booking rule and the staff RPC)
-- ---------------------------------------------------------------------------------------------

-- Refuses a draft whose pickup or return falls outside its place's hours. The detail names the
-- place and the Algiers time, for logs and support.
create or replace function internal.check_opening_hours(d internal.booking_draft)
returns void
language plpgsql
stable
set search_path = ''
as $$
declare
  place public.locations;
begin
  select l.* into place from public.locations l where l.id = d.pickup_location_id;
  if found and not internal.is_open_at(place.opening_hours, place.closed_dates, d.start_at) then
    perform internal.fail('pickup_outside_hours', json_build_object(
      'location_id', place.id,
      'at', to_char(d.start_at at time zone 'Africa/Algiers', 'YYYY-MM-DD"T"HH24:MI:SS'))::text);
  end if;
  select l.* into place from public.locations l where l.id = d.dropoff_location_id;
  if found and not internal.is_open_at(place.opening_hours, place.closed_dates, d.end_at) then
    perform internal.fail('return_outside_hours', json_build_object(
      'location_id', place.id,
      'at', to_char(d.end_at at time zone 'Africa/Algiers', 'YYYY-MM-DD"T"HH24:MI:SS'))::text);
  end if;
end
$$;

-- The live definition, plus the opening hours right after the price (which refuses an unknown
-- or retired place first) and before the files.
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

  perform internal.check_opening_hours(d);

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

-- Staff set a place's weekly hours and closed dates; returns the place. Codes: not_allowed,
-- location_not_found, invalid_opening_hours, too_many_closed_dates. Closed dates are stored
-- sorted, without duplicates; past ones are kept (history) but count towards the limit.
create or replace function public.staff_set_opening_hours(
  location_id uuid, opening_hours jsonb, closed_dates date[]
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  place public.locations;
  dates date[];
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  if not internal.is_opening_hours(staff_set_opening_hours.opening_hours) then
    perform internal.fail('invalid_opening_hours',
      '7 entries (0 = Sunday), each null or [open, close] minutes, 0 <= open < close <= 1440');
  end if;
  select coalesce(array_agg(distinct x order by x), '{}') into dates
    from unnest(coalesce(staff_set_opening_hours.closed_dates, '{}')) x
   where x is not null;
  if cardinality(dates) > internal.app_limit('closed_dates') then
    perform internal.fail('too_many_closed_dates',
      format('at most %s', internal.app_limit('closed_dates')));
  end if;
  update public.locations l
     set opening_hours = staff_set_opening_hours.opening_hours, closed_dates = dates
   where l.id = staff_set_opening_hours.location_id
  returning l.* into place;
  if not found then
    perform internal.fail('location_not_found',
      coalesce(staff_set_opening_hours.location_id::text, 'location_id'));
  end if;
  return to_jsonb(place);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function internal.is_opening_hours(jsonb) from public;
revoke all on function internal.is_open_at(jsonb, date[], timestamptz) from public;
revoke all on function internal.check_opening_hours(internal.booking_draft) from public;
-- The CHECK constraint runs as the writer (an admin through the API), like is_localized.
grant execute on function internal.is_opening_hours(jsonb) to anon, authenticated, service_role;

revoke all on function public.staff_set_opening_hours(uuid, jsonb, date[])
  from public, anon, authenticated;
grant execute on function public.staff_set_opening_hours(uuid, jsonb, date[])
  to authenticated, service_role;
