-- Pricing: the one function that prices a booking (docs/pricing.md), and the reading of the RPC
-- payload that quote_booking and create_booking share. The TypeScript twin is src/lib/pricing.ts;
-- tests/api/pricing.test.ts holds the two equal.

-- ---------------------------------------------------------------------------------------------
-- Functions: reading a JSON payload (each refuses a wrong type with a stable code)
-- ---------------------------------------------------------------------------------------------

-- A string member, or null when absent or JSON null; anything but a string → invalid_payload.
create or replace function internal.payload_text(p jsonb, key text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p -> key is null or jsonb_typeof(p -> key) = 'null' then
    return null;
  end if;
  if jsonb_typeof(p -> key) <> 'string' then
    perform internal.fail('invalid_payload', key || ' must be a string');
  end if;
  return p ->> key;
end
$$;

-- A uuid member (null when absent); anything else → invalid_payload.
create or replace function internal.payload_uuid(p jsonb, key text)
returns uuid
language plpgsql
immutable
set search_path = ''
as $$
declare
  v text := internal.payload_text(p, key);
begin
  if v is null then
    return null;
  end if;
  if v !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    perform internal.fail('invalid_payload', key || ' must be a uuid');
  end if;
  return v::uuid;
end
$$;

-- A boolean member, or the default when absent; anything else → invalid_payload.
create or replace function internal.payload_boolean(p jsonb, key text, fallback boolean)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p -> key is null or jsonb_typeof(p -> key) = 'null' then
    return fallback;
  end if;
  if jsonb_typeof(p -> key) <> 'boolean' then
    perform internal.fail('invalid_payload', key || ' must be a boolean');
  end if;
  return (p -> key)::boolean;
end
$$;

-- An array of codes (strings), empty when absent, duplicates removed in first-seen order.
create or replace function internal.payload_codes(p jsonb, key text)
returns text[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  v jsonb := p -> key;
begin
  if v is null or jsonb_typeof(v) = 'null' then
    return '{}'::text[];
  end if;
  if jsonb_typeof(v) <> 'array'
     or exists (select 1 from jsonb_array_elements(v) e where jsonb_typeof(e) <> 'string') then
    perform internal.fail('invalid_payload', key || ' must be an array of strings');
  end if;
  if jsonb_array_length(v) > 20 then
    perform internal.fail('invalid_payload', key || ' has too many items');
  end if;
  return coalesce(
    (select array_agg(code order by first_seen)
       from (select e.code, min(e.n) as first_seen
               from jsonb_array_elements_text(v) with ordinality as e(code, n)
              group by e.code) d),
    '{}'::text[]
  );
end
$$;

-- An instant written in ISO 8601 with its offset (2027-03-12T10:00:00+01:00, …Z); anything else,
-- including a date without an offset or an impossible date → invalid_dates.
create or replace function internal.payload_instant(p jsonb, key text)
returns timestamptz
language plpgsql
immutable
set search_path = ''
as $$
declare
  v jsonb := p -> key;
  s text;
begin
  if v is null or jsonb_typeof(v) = 'null' then
    return null;
  end if;
  s := case when jsonb_typeof(v) = 'string' then p ->> key end;
  if s is null
     or s !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?(Z|z|[+-][0-9]{2}(:?[0-9]{2})?)$' then
    perform internal.fail('invalid_dates', key || ' must be an ISO 8601 date-time with an offset');
  end if;
  begin
    return s::timestamptz;
  exception when others then
    perform internal.fail('invalid_dates', key || ' is not a real date-time');
  end;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Functions: the price
-- ---------------------------------------------------------------------------------------------

-- The price breakdown of docs/decisions.md, in whole DZD:
--   days            whole 24-hour periods from pickup to return, rounded up, at least 1
--   base            days × car daily_rate_dzd
--   extras_total    Σ extras: price_dzd × days (per 'day') or price_dzd once (per 'rental')
--   insurance_total Σ insurance options not `included`: price_dzd_per_day × days
--                   (civil_liability is always part of the booking)
--   driver_total    settings.driver_per_day_dzd × days when the driver is provided
--   pickup_fee      delivery_fee_dzd of the pickup location (0 when none is chosen yet)
--   dropoff_fee     delivery_fee_dzd of the dropoff location (0 when none is chosen yet)
--   subtotal = total = base + extras + insurance + driver + both fees; deposit = car deposit_dzd
-- Refuses: invalid_dates (missing, or return not after pickup), car_not_found (unknown or
-- retired car), location_not_found, invalid_driver_option, unknown_extra, unknown_insurance.
create or replace function internal.price_booking(
  car_id uuid,
  start_at timestamptz,
  end_at timestamptz,
  pickup_location_id uuid,
  dropoff_location_id uuid,
  driver_option text,
  extras text[],
  insurance text[]
)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  car public.cars;
  days bigint;
  base bigint;
  extras_total bigint;
  insurance_total bigint;
  driver_total bigint := 0;
  pickup_fee bigint := 0;
  dropoff_fee bigint := 0;
  subtotal bigint;
  missing text;
  codes text[] := array(
    select distinct c from unnest(array['civil_liability'] || coalesce(price_booking.insurance, '{}')) c
  );
begin
  if price_booking.start_at is null or price_booking.end_at is null then
    perform internal.fail('invalid_dates', 'start_at and end_at are required');
  end if;
  if price_booking.end_at <= price_booking.start_at then
    perform internal.fail('invalid_dates', 'end_at must be after start_at');
  end if;

  select c.* into car from public.cars c where c.id = price_booking.car_id and c.active;
  if not found then
    perform internal.fail('car_not_found', coalesce(price_booking.car_id::text, 'car_id is required'));
  end if;

  if price_booking.pickup_location_id is not null then
    select l.delivery_fee_dzd into pickup_fee
      from public.locations l where l.id = price_booking.pickup_location_id and l.active;
    if not found then
      perform internal.fail('location_not_found', 'pickup_location_id');
    end if;
  end if;
  if price_booking.dropoff_location_id is not null then
    select l.delivery_fee_dzd into dropoff_fee
      from public.locations l where l.id = price_booking.dropoff_location_id and l.active;
    if not found then
      perform internal.fail('location_not_found', 'dropoff_location_id');
    end if;
  end if;

  if price_booking.driver_option is null or price_booking.driver_option not in ('self', 'provided') then
    perform internal.fail('invalid_driver_option', coalesce(price_booking.driver_option, 'missing'));
  end if;

  select c into missing
    from unnest(coalesce(price_booking.extras, '{}')) c
   where not exists (select 1 from public.extras e where e.code = c and e.active)
   limit 1;
  if missing is not null then
    perform internal.fail('unknown_extra', missing);
  end if;

  select c into missing
    from unnest(codes) c
   where not exists (select 1 from public.insurance_options i where i.code = c and i.active)
   limit 1;
  if missing is not null then
    perform internal.fail('unknown_insurance', missing);
  end if;

  days := greatest(
    1,
    ceil((extract(epoch from price_booking.end_at) - extract(epoch from price_booking.start_at)) / 86400)
  );
  base := days * car.daily_rate_dzd;

  select coalesce(sum(case when e.per = 'day' then e.price_dzd * days else e.price_dzd end), 0)
    into extras_total
    from public.extras e
   where e.code = any (array(select distinct unnest(coalesce(price_booking.extras, '{}'))));

  select coalesce(sum(i.price_dzd_per_day * days), 0)
    into insurance_total
    from public.insurance_options i
   where i.code = any (codes) and not i.included;

  if price_booking.driver_option = 'provided' then
    select s.driver_per_day_dzd * days into driver_total from public.settings s where s.id = 1;
  end if;

  subtotal := base + extras_total + insurance_total + driver_total + pickup_fee + dropoff_fee;

  return jsonb_build_object(
    'days', days,
    'base', base,
    'extras_total', extras_total,
    'insurance_total', insurance_total,
    'driver_total', driver_total,
    'pickup_fee', pickup_fee,
    'dropoff_fee', dropoff_fee,
    'subtotal', subtotal,
    'deposit', car.deposit_dzd,
    'total', subtotal,
    'currency', 'DZD'
  );
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function internal.payload_text(jsonb, text) from public;
revoke all on function internal.payload_uuid(jsonb, text) from public;
revoke all on function internal.payload_boolean(jsonb, text, boolean) from public;
revoke all on function internal.payload_codes(jsonb, text) from public;
revoke all on function internal.payload_instant(jsonb, text) from public;
revoke all on function internal.price_booking(uuid, timestamptz, timestamptz, uuid, uuid, text,
  text[], text[]) from public;
