-- car_busy_periods in plain SQL again, now with the holds rule of 20261125200100_booking_holds.
--
-- 20261125100000_linter_clean made it SQL because plpgsql_check (`supabase db lint`) warns on the
-- PL/pgSQL parameters "from" and "to" (reserved words); 20261125200100 redefined it in PL/pgSQL
-- to skip lapsed guest holds. Same parameters and answer (the app calls ?from=…&to=…), the
-- window checked by internal.busy_window (same error codes and messages), holds read by
-- internal.booking_holds_car.
--
-- Timestamp outside the parity range (20261125100000–199999) on purpose: it must run after
-- 20261125200100, which it replaces.
create or replace function public.car_busy_periods("from" timestamptz, "to" timestamptz)
returns table (car_id uuid, start_at timestamptz, end_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select b.car_id, b.start_at, b.end_at
    from internal.busy_window(car_busy_periods."from", car_busy_periods."to") as w (span)
    join public.bookings b on b.period && w.span
   where b.status in ('pending', 'reserved', 'in_progress')
     and internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at)
   order by b.car_id, b.start_at
$$;

revoke all on function public.car_busy_periods(timestamptz, timestamptz) from public;
grant execute on function public.car_busy_periods(timestamptz, timestamptz)
  to anon, authenticated, service_role;
