-- function internal.check_handover(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.check_handover()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  booking_status text;
  pickup_km integer;
begin
  select b.status into booking_status from public.bookings b where b.id = new.booking_id for update;
  if booking_status is null then
    perform internal.fail('not_found', new.booking_id::text);
  end if;
  if new.kind = 'pickup' and booking_status not in ('reserved', 'in_progress') then
    perform internal.fail('handover_wrong_status', booking_status);
  end if;
  if new.kind = 'return' then
    if booking_status not in ('in_progress', 'completed') then
      perform internal.fail('handover_wrong_status', booking_status);
    end if;
    select h.odometer_km into pickup_km
      from public.booking_handovers h
     where h.booking_id = new.booking_id and h.kind = 'pickup';
    if pickup_km is null then
      perform internal.fail('pickup_missing', new.booking_id::text);
    end if;
    if new.odometer_km < pickup_km then
      perform internal.fail('odometer_below_pickup', pickup_km::text);
    end if;
  elsif tg_op = 'UPDATE' and exists (
    select 1 from public.booking_handovers h
     where h.booking_id = new.booking_id and h.kind = 'return' and h.odometer_km < new.odometer_km
  ) then
    perform internal.fail('odometer_below_pickup', new.odometer_km::text);
  end if;
  return new;
end
$function$;

