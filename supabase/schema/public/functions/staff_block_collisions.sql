-- function public.staff_block_collisions(car_id uuid, start_at timestamp with time zone, end_at timestamp with time zone): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_block_collisions(car_id uuid, start_at timestamp with time zone, end_at timestamp with time zone)
 RETURNS TABLE(kind text, id uuid, reference text, status text, from_at timestamp with time zone, to_at timestamp with time zone, holds boolean, reason text)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  if staff_block_collisions.start_at is null or staff_block_collisions.end_at is null
     or staff_block_collisions.end_at <= staff_block_collisions.start_at then
    perform internal.fail('invalid_period', 'end_at must be after start_at');
  end if;
  return query
    select 'booking'::text, b.id, b.reference, b.status, b.start_at, b.end_at,
           internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at), null::text
      from public.bookings b
     where b.car_id = staff_block_collisions.car_id
       and b.period && tstzrange(staff_block_collisions.start_at, staff_block_collisions.end_at, '[)')
       and (internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at)
            or (b.status = 'pending' and b.confirm_by > now()))
    union all
    select 'block'::text, k.id, null::text, null::text, k.start_at, k.end_at, true, k.reason
      from public.car_blocks k
     where k.car_id = staff_block_collisions.car_id
       and k.period && tstzrange(staff_block_collisions.start_at, staff_block_collisions.end_at, '[)')
     order by 5, 2;
end
$function$;

grant execute on function public.staff_block_collisions(car_id uuid, start_at timestamp with time zone, end_at timestamp with time zone) to authenticated;
grant execute on function public.staff_block_collisions(car_id uuid, start_at timestamp with time zone, end_at timestamp with time zone) to service_role;
