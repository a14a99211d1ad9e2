-- Prices staff can change (docs/staff-prices.md): a place's delivery fee and names, an extra's
-- and an insurance option's price and names, the driver's daily rate. Admins at aal2 only, every
-- value checked here with a stable code; quote_booking and create_booking read the rows as they
-- are, and devices get them through the catalogue delta (settings are refetched whole).

-- ---------------------------------------------------------------------------------------------
-- Limits
-- ---------------------------------------------------------------------------------------------
-- The same numbers as src/domain/limits.ts; one line added: price_dzd.
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
    when 'price_dzd' then 1000000    -- one catalogue price: fee, extra, insurance/day, driver/day
  end;
begin
  if value is null then
    raise exception 'unknown limit %', name using errcode = '22023';
  end if;
  return value;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table public.locations
  add constraint locations_fee_bounded check (delivery_fee_dzd <= internal.app_limit('price_dzd'));
alter table public.extras
  add constraint extras_price_bounded check (price_dzd <= internal.app_limit('price_dzd'));
alter table public.insurance_options
  add constraint insurance_options_price_bounded check (
    price_dzd_per_day <= internal.app_limit('price_dzd'));
alter table public.settings
  add constraint settings_driver_bounded check (
    driver_per_day_dzd <= internal.app_limit('price_dzd'));

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- A price staff typed: a whole, non-negative number of DZD up to the limit, else invalid_price.
create or replace function internal.check_price(value integer)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if value is null or value < 0 or value > internal.app_limit('price_dzd') then
    perform internal.fail('invalid_price',
      format('a whole number of DZD from 0 to %s', internal.app_limit('price_dzd')));
  end if;
end
$$;

-- A catalogue name in French, English and Arabic: each present (name_required), at most
-- app_limit('name') characters (name_too_long), no hidden characters (invalid_name).
create or replace function internal.check_catalogue_name(value jsonb)
returns void
language plpgsql
immutable
set search_path = ''
as $$
declare
  lang text;
begin
  if not coalesce(internal.is_localized(value), false) then
    perform internal.fail('name_required', 'fr, en and ar');
  end if;
  foreach lang in array array['fr', 'en', 'ar'] loop
    if char_length(btrim(value ->> lang)) > internal.app_limit('name') then
      perform internal.fail('name_too_long', lang);
    end if;
    if internal.has_hidden_characters(value ->> lang) then
      perform internal.fail('invalid_name', lang);
    end if;
  end loop;
end
$$;

-- The trimmed fr/en/ar of a checked name (other keys dropped); null for null (strict).
create or replace function internal.trimmed_name(value jsonb)
returns jsonb
language sql
immutable strict
set search_path = ''
as $$
  select jsonb_build_object('fr', btrim(value ->> 'fr'), 'en', btrim(value ->> 'en'),
    'ar', btrim(value ->> 'ar'))
$$;

-- A place's delivery fee and, when given, its names. Codes: not_allowed, location_not_found,
-- invalid_price, name_required, name_too_long, invalid_name.
create or replace function public.staff_update_location(
  location_id uuid, delivery_fee_dzd integer, name jsonb default null
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  r public.locations;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  perform internal.check_price(staff_update_location.delivery_fee_dzd);
  if staff_update_location.name is not null then
    perform internal.check_catalogue_name(staff_update_location.name);
  end if;
  update public.locations l
     set delivery_fee_dzd = staff_update_location.delivery_fee_dzd,
         name = coalesce(internal.trimmed_name(staff_update_location.name), l.name)
   where l.id = staff_update_location.location_id
  returning l.* into r;
  if not found then
    perform internal.fail('location_not_found', coalesce(staff_update_location.location_id::text, 'location_id'));
  end if;
  return to_jsonb(r);
end
$$;

-- An extra's price and, when given, its names. Codes: not_allowed, unknown_extra, invalid_price,
-- name_required, name_too_long, invalid_name.
create or replace function public.staff_update_extra(
  code text, price_dzd integer, name jsonb default null
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  r public.extras;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  perform internal.check_price(staff_update_extra.price_dzd);
  if staff_update_extra.name is not null then
    perform internal.check_catalogue_name(staff_update_extra.name);
  end if;
  update public.extras e
     set price_dzd = staff_update_extra.price_dzd,
         name = coalesce(internal.trimmed_name(staff_update_extra.name), e.name)
   where e.code = staff_update_extra.code
  returning e.* into r;
  if not found then
    perform internal.fail('unknown_extra', coalesce(staff_update_extra.code, 'code'));
  end if;
  return to_jsonb(r);
end
$$;

-- An insurance option's daily price and, when given, its names; an included option stays free.
-- Codes: not_allowed, unknown_insurance, invalid_price, name_required, name_too_long,
-- invalid_name.
create or replace function public.staff_update_insurance(
  code text, price_dzd_per_day integer, name jsonb default null
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  r public.insurance_options;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  perform internal.check_price(staff_update_insurance.price_dzd_per_day);
  if staff_update_insurance.name is not null then
    perform internal.check_catalogue_name(staff_update_insurance.name);
  end if;
  if exists (select from public.insurance_options i
              where i.code = staff_update_insurance.code and i.included)
     and staff_update_insurance.price_dzd_per_day <> 0 then
    perform internal.fail('invalid_price', 'an included option is free');
  end if;
  update public.insurance_options i
     set price_dzd_per_day = staff_update_insurance.price_dzd_per_day,
         name = coalesce(internal.trimmed_name(staff_update_insurance.name), i.name)
   where i.code = staff_update_insurance.code
  returning i.* into r;
  if not found then
    perform internal.fail('unknown_insurance', coalesce(staff_update_insurance.code, 'code'));
  end if;
  return to_jsonb(r);
end
$$;

-- The driver's daily rate (settings). Codes: not_allowed, invalid_price. Returns the rate.
create or replace function public.staff_set_driver_rate(driver_per_day_dzd integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  perform internal.check_price(staff_set_driver_rate.driver_per_day_dzd);
  update public.settings s set driver_per_day_dzd = staff_set_driver_rate.driver_per_day_dzd
   where s.id = 1;
  return jsonb_build_object('driver_per_day_dzd', staff_set_driver_rate.driver_per_day_dzd);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function internal.check_price(integer) from public;
revoke all on function internal.check_catalogue_name(jsonb) from public;
revoke all on function internal.trimmed_name(jsonb) from public;

revoke all on function public.staff_update_location(uuid, integer, jsonb)
  from public, anon, authenticated;
revoke all on function public.staff_update_extra(text, integer, jsonb)
  from public, anon, authenticated;
revoke all on function public.staff_update_insurance(text, integer, jsonb)
  from public, anon, authenticated;
revoke all on function public.staff_set_driver_rate(integer) from public, anon, authenticated;
grant execute on function public.staff_update_location(uuid, integer, jsonb)
  to authenticated, service_role;
grant execute on function public.staff_update_extra(text, integer, jsonb)
  to authenticated, service_role;
grant execute on function public.staff_update_insurance(text, integer, jsonb)
  to authenticated, service_role;
grant execute on function public.staff_set_driver_rate(integer) to authenticated, service_role;
