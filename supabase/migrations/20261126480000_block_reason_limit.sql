-- A block's reason: one number for the app and the database (issue 21's rule, missed by the
-- blocked periods written beside it): internal.app_limit('block_reason') = LIMITS.blockReason in
-- src/domain/limits.ts, read by staff_block_car and the car_blocks constraint
-- (tests/api/limits.test.ts holds them equal at the boundary).

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
  end;
begin
  if value is null then
    raise exception 'unknown limit %', name using errcode = '22023';
  end if;
  return value;
end
$function$;

alter table public.car_blocks drop constraint car_blocks_reason_length;
alter table public.car_blocks add constraint car_blocks_reason_length check (
  char_length(btrim(reason)) between 1 and internal.app_limit('block_reason'));

CREATE OR REPLACE FUNCTION public.staff_block_car(car_id uuid, start_at timestamp with time zone, end_at timestamp with time zone, reason text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  k public.car_blocks;
  why text := btrim(coalesce(staff_block_car.reason, ''));
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  if not exists (select from public.cars c where c.id = staff_block_car.car_id) then
    perform internal.fail('car_not_found', coalesce(staff_block_car.car_id::text, 'car_id'));
  end if;
  if staff_block_car.start_at is null or staff_block_car.end_at is null
     or staff_block_car.end_at <= staff_block_car.start_at then
    perform internal.fail('invalid_period', 'end_at must be after start_at');
  end if;
  if staff_block_car.end_at <= now() then
    perform internal.fail('block_in_past', 'end_at must be in the future');
  end if;
  if staff_block_car.end_at - staff_block_car.start_at > interval '366 days' then
    perform internal.fail('block_too_long', 'at most 366 days');
  end if;
  if why = '' then
    perform internal.fail('reason_required', 'reason');
  end if;
  if char_length(why) > internal.app_limit('block_reason') then
    perform internal.fail('reason_too_long', 'reason');
  end if;
  if internal.has_hidden_characters(why) then
    perform internal.fail('invalid_text', 'reason');
  end if;
  -- Guest holds whose code lapsed hold nothing; flip them so the history says so.
  perform internal.expire_lapsed_bookings(
    only_car => staff_block_car.car_id,
    only_period => tstzrange(staff_block_car.start_at, staff_block_car.end_at, '[)'));
  insert into public.car_blocks (car_id, start_at, end_at, reason, created_by)
  values (staff_block_car.car_id, staff_block_car.start_at, staff_block_car.end_at, why, auth.uid())
  returning * into k;
  return to_jsonb(k) - 'period';
end
$function$;
