-- function internal.lock_car_holds(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.lock_car_holds()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if tg_table_name = 'car_blocks' then
    perform pg_advisory_xact_lock(hashtextextended('car_holds:' || new.car_id::text, 0));
  elsif internal.booking_holds_car(new.status, new.confirm_by, new.contact_confirmed_at) then
    perform pg_advisory_xact_lock(hashtextextended('car_holds:' || new.car_id::text, 0));
  end if;
  return new;
end
$function$;

