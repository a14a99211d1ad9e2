-- function internal.app_limit(name text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.app_limit(name text)
 RETURNS integer
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
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
    when 'car_pictures' then 12      -- a car's pictures (staff_set_car_pictures, cars.images)
    when 'odometer_km' then 2000000  -- a car's mileage, a pickup's or return's odometer
    when 'amount_dzd' then 10000000  -- a car's daily rate and deposit, a deposit held or kept
    when 'damage_marks' then 30      -- damage marks on one pickup or return record
    when 'damage_note' then 200      -- one damage mark's note
  end;
begin
  if value is null then
    raise exception 'unknown limit %', name using errcode = '22023';
  end if;
  return value;
end
$function$;

grant execute on function internal.app_limit(name text) to anon;
grant execute on function internal.app_limit(name text) to authenticated;
grant execute on function internal.app_limit(name text) to service_role;
grant execute on function internal.app_limit(name text) to supabase_auth_admin;
