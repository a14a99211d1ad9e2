-- function public.cancel_booking(booking_id uuid): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.cancel_booking(booking_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  uid uuid := auth.uid();
  b public.bookings;
begin
  if uid is null then
    perform internal.fail('not_allowed', 'sign in to cancel a booking');
  end if;
  select x.* into b from public.bookings x where x.id = cancel_booking.booking_id for update;
  if not found or b.user_id is distinct from uid then
    perform internal.fail('not_found', coalesce(cancel_booking.booking_id::text, 'booking_id'));
  end if;
  if b.status = 'cancelled' then
    return internal.booking_json(b);
  end if;
  if b.status not in ('pending', 'reserved') then
    perform internal.fail('invalid_status_transition', b.status || ' → cancelled');
  end if;
  update public.bookings x set status = 'cancelled' where x.id = b.id returning x.* into b;
  return internal.booking_json(b);
end
$function$;

grant execute on function public.cancel_booking(booking_id uuid) to authenticated;
grant execute on function public.cancel_booking(booking_id uuid) to service_role;
