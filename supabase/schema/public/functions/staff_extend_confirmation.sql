-- function public.staff_extend_confirmation(booking_id uuid, minutes integer): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_extend_confirmation(booking_id uuid, minutes integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  b public.bookings;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  if minutes is null or minutes < 15 or minutes > 1440 then
    perform internal.fail('invalid_extension', 'minutes between 15 and 1440');
  end if;
  select x.* into b from public.bookings x
   where x.id = staff_extend_confirmation.booking_id and x.user_id is null
     for update;
  if not found then
    perform internal.fail('not_found', coalesce(staff_extend_confirmation.booking_id::text, 'booking_id'));
  end if;
  if b.contact_confirmed_at is not null then
    perform internal.fail('already_confirmed', b.reference);
  end if;
  if internal.expire_lapsed_bookings(only_booking => b.id) > 0 or b.status = 'expired' then
    perform internal.fail('booking_expired', b.reference);
  end if;
  if b.status <> 'pending' then
    perform internal.fail('invalid_status_transition', b.status || ' → extended');
  end if;
  update public.bookings x
     set confirm_by = greatest(x.confirm_by, now() + make_interval(mins => minutes))
   where x.id = b.id
  returning x.* into b;
  insert into public.booking_events (booking_id, status, reason, actor, actor_id)
  values (b.id, b.status, 'confirmation_extended', 'staff', auth.uid());
  return internal.booking_json(b);
end
$function$;

grant execute on function public.staff_extend_confirmation(booking_id uuid, minutes integer) to authenticated;
grant execute on function public.staff_extend_confirmation(booking_id uuid, minutes integer) to service_role;
