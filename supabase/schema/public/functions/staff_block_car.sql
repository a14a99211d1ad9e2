-- function public.staff_block_car(car_id uuid, start_at timestamp with time zone, end_at timestamp with time zone, reason text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

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

grant execute on function public.staff_block_car(car_id uuid, start_at timestamp with time zone, end_at timestamp with time zone, reason text) to authenticated;
grant execute on function public.staff_block_car(car_id uuid, start_at timestamp with time zone, end_at timestamp with time zone, reason text) to service_role;
