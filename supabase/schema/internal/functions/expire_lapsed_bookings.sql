-- function internal.expire_lapsed_bookings(only_booking uuid, only_car uuid, only_period tstzrange, batch integer): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.expire_lapsed_bookings(only_booking uuid DEFAULT NULL::uuid, only_car uuid DEFAULT NULL::uuid, only_period tstzrange DEFAULT NULL::tstzrange, batch integer DEFAULT NULL::integer)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  flipped integer;
begin
  with due as (
    select b.id
      from public.bookings b
     where b.status = 'pending'
       and b.contact_confirmed_at is null
       and b.confirm_by <= now()
       and (only_booking is null or b.id = only_booking)
       and (only_car is null or b.car_id = only_car)
       and (only_period is null or b.period && only_period)
     order by b.confirm_by
     limit batch
       for update skip locked
  )
  update public.bookings x
     set status = 'expired',
         status_reason = 'contact_not_confirmed'
    from due
   where x.id = due.id;
  get diagnostics flipped = row_count;
  return flipped;
end
$function$;

