-- Writers of a car's holds take turns. Two transactions writing overlapping holds of one car at
-- the same moment (two bookings, a booking and a block, two guests confirming) each inserted
-- their row under an exclusion constraint (bookings_no_overlap, car_holds_no_overlap), found the
-- other's uncommitted row and waited for it: PostgreSQL then aborted one with `deadlock detected`
-- (40P01), which reached the caller as is instead of car_unavailable / block_collides (seen on
-- PostgreSQL 15 in tests/api/car-blocks.test.ts and create-booking.test.ts under load). A row
-- that holds its car now takes a transaction lock named after the car before it is written, so
-- the second writer waits for the first to finish and then meets its row as a plain conflict.
-- Writes that hold no car (an unconfirmed guest request, a cancellation) take no lock, and
-- different cars never wait for each other.

create function internal.lock_car_holds()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'car_blocks' then
    perform pg_advisory_xact_lock(hashtextextended('car_holds:' || new.car_id::text, 0));
  elsif internal.booking_holds_car(new.status, new.confirm_by, new.contact_confirmed_at) then
    perform pg_advisory_xact_lock(hashtextextended('car_holds:' || new.car_id::text, 0));
  end if;
  return new;
end
$$;

revoke all on function internal.lock_car_holds() from public, anon, authenticated;

create trigger bookings_lock_car_holds
  before insert or update of status, confirm_by, contact_confirmed_at, user_id, car_id, start_at, end_at
  on public.bookings
  for each row execute function internal.lock_car_holds();

create trigger car_blocks_lock_car_holds
  before insert or update of car_id, start_at, end_at
  on public.car_blocks
  for each row execute function internal.lock_car_holds();
