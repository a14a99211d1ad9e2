-- function public.car_busy_periods("from" timestamp with time zone, "to" timestamp with time zone): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.car_busy_periods("from" timestamp with time zone, "to" timestamp with time zone)
 RETURNS TABLE(car_id uuid, start_at timestamp with time zone, end_at timestamp with time zone)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select x.car_id, x.start_at, x.end_at
    from internal.busy_window(car_busy_periods."from", car_busy_periods."to") as w (span)
    join lateral (
      select b.car_id, b.start_at, b.end_at
        from public.bookings b
       where b.period && w.span
         and b.status in ('pending', 'reserved', 'in_progress')
         and internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at)
      union all
      select k.car_id, k.start_at, k.end_at
        from public.car_blocks k
       where k.period && w.span
    ) x on true
   order by x.car_id, x.start_at
$function$;

grant execute on function public.car_busy_periods("from" timestamp with time zone, "to" timestamp with time zone) to anon;
grant execute on function public.car_busy_periods("from" timestamp with time zone, "to" timestamp with time zone) to authenticated;
grant execute on function public.car_busy_periods("from" timestamp with time zone, "to" timestamp with time zone) to service_role;
