-- function internal.sync_booking_hold(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.sync_booking_hold()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if tg_op = 'UPDATE' then
    delete from internal.car_holds h where h.booking_id = new.id;
  end if;
  if internal.booking_holds_car(new.status, new.confirm_by, new.contact_confirmed_at) then
    begin
      insert into internal.car_holds (car_id, period, booking_id)
      values (new.car_id, new.period, new.id);
    exception when exclusion_violation then
      raise exception using
        errcode = 'exclusion_violation',
        constraint = 'bookings_no_overlap',
        message = 'car_blocked',
        detail = new.car_id::text;
    end;
  elsif tg_op = 'INSERT' and exists (
    select from public.car_blocks k where k.car_id = new.car_id and k.period && new.period
  ) then
    perform internal.fail('car_unavailable', new.car_id::text);
  end if;
  return null;
end
$function$;

