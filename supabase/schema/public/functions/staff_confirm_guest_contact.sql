-- function public.staff_confirm_guest_contact(booking_id uuid): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_confirm_guest_contact(booking_id uuid)
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
  select x.* into b from public.bookings x
   where x.id = staff_confirm_guest_contact.booking_id and x.user_id is null
     for update;
  if not found then
    perform internal.fail('not_found', coalesce(staff_confirm_guest_contact.booking_id::text, 'booking_id'));
  end if;
  if b.contact_confirmed_at is not null then
    perform internal.fail('already_confirmed', b.reference);
  end if;
  if internal.expire_lapsed_bookings(only_booking => b.id) > 0 or b.status = 'expired' then
    perform internal.fail('booking_expired', b.reference);
  end if;
  if b.status <> 'pending' then
    perform internal.fail('invalid_status_transition', b.status || ' → confirmed contact');
  end if;
  begin
    update public.bookings x set contact_confirmed_at = now() where x.id = b.id returning x.* into b;
  exception when exclusion_violation then
    perform internal.fail('car_unavailable', b.car_id::text);
  end;
  update internal.guest_confirmations x set confirmed_at = now() where x.booking_id = b.id;
  insert into public.booking_events (booking_id, status, reason, actor, actor_id)
  values (b.id, b.status, 'contact_confirmed_by_staff', 'staff', auth.uid());
  perform internal.enqueue_guest_mail(b, 'booking_received');
  return internal.booking_json(b);
end
$function$;

grant execute on function public.staff_confirm_guest_contact(booking_id uuid) to authenticated;
grant execute on function public.staff_confirm_guest_contact(booking_id uuid) to service_role;
