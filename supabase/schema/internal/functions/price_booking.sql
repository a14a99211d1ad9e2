-- function internal.price_booking(car_id uuid, start_at timestamp with time zone, end_at timestamp with time zone, pickup_location_id uuid, dropoff_location_id uuid, driver_option text, extras text[], insurance text[]): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.price_booking(car_id uuid, start_at timestamp with time zone, end_at timestamp with time zone, pickup_location_id uuid, dropoff_location_id uuid, driver_option text, extras text[], insurance text[])
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
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
  codes text[] := case
    when coalesce(price_booking.insurance, '{}') <@ array['civil_liability'] then array['civil_liability']
    else array(
      select distinct c from unnest(array['civil_liability'] || price_booking.insurance) c)
  end;
  no_extras boolean := coalesce(cardinality(price_booking.extras), 0) = 0;
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
  if price_booking.dropoff_location_id is not distinct from price_booking.pickup_location_id then
    dropoff_fee := pickup_fee;
  elsif price_booking.dropoff_location_id is not null then
    select l.delivery_fee_dzd into dropoff_fee
      from public.locations l where l.id = price_booking.dropoff_location_id and l.active;
    if not found then
      perform internal.fail('location_not_found', 'dropoff_location_id');
    end if;
  end if;

  if price_booking.driver_option is null or price_booking.driver_option not in ('self', 'provided') then
    perform internal.fail('invalid_driver_option', coalesce(price_booking.driver_option, 'missing'));
  end if;

  if not no_extras then
    select c into missing
      from unnest(price_booking.extras) c
     where not exists (select 1 from public.extras e where e.code = c and e.active)
     limit 1;
    if missing is not null then
      perform internal.fail('unknown_extra', missing);
    end if;
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

  if no_extras then
    extras_total := 0;
  else
    select coalesce(sum(case when e.per = 'day' then e.price_dzd * days else e.price_dzd end), 0)
      into extras_total
      from public.extras e
     where e.code = any (array(select distinct unnest(price_booking.extras)));
  end if;

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
$function$;

