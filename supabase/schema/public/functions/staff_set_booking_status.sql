-- function public.staff_set_booking_status(booking_id uuid, status text, reason text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

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

grant execute on function public.staff_set_booking_status(booking_id uuid, status text, reason text) to authenticated;
grant execute on function public.staff_set_booking_status(booking_id uuid, status text, reason text) to service_role;
