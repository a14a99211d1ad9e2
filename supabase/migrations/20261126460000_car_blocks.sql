-- Blocked periods (docs/fleet.md): staff take a car out of service (maintenance, private use) for
-- a period with a reason. A block and a booking that holds the car never overlap: both feed one
-- table of holds, internal.car_holds, whose EXCLUDE constraint is the single rule (as
-- bookings_no_overlap is for two bookings). Customers see blocks as busy periods, without the
-- reason.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
create table public.car_blocks (
  id uuid primary key default gen_random_uuid(),
  car_id uuid not null references public.cars (id) on delete restrict,
  start_at timestamptz not null,
  end_at timestamptz not null,
  period tstzrange generated always as (tstzrange(start_at, end_at, '[)')) stored,
  reason text not null,
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint car_blocks_end_after_start check (end_at > start_at),
  constraint car_blocks_at_most_366_days check (end_at - start_at <= interval '366 days'),
  constraint car_blocks_reason_length check (
    char_length(btrim(reason)) between 1 and 300
  )
);

comment on table public.car_blocks is
  'Periods a car is out of service (staff only); customers see them through car_busy_periods.';

create index car_blocks_car_id_start_at_idx on public.car_blocks (car_id, start_at);
create index car_blocks_created_by_idx on public.car_blocks (created_by);

alter table public.car_blocks enable row level security;
revoke all on table public.car_blocks from anon, authenticated;
grant select on table public.car_blocks to authenticated;
grant all on table public.car_blocks to service_role;

create policy "Admins read every blocked period" on public.car_blocks
  as permissive for select to authenticated
  using ((select public.is_admin()));

-- One row per thing that holds a car: a booking that holds it (internal.booking_holds_car) or a
-- block. Kept by the triggers below, never written by the API.
create table internal.car_holds (
  car_id uuid not null,
  period tstzrange not null,
  booking_id uuid unique references public.bookings (id) on delete cascade,
  block_id uuid unique references public.car_blocks (id) on delete cascade,
  constraint car_holds_one_source check ((booking_id is null) <> (block_id is null)),
  constraint car_holds_no_overlap exclude using gist (car_id with =, period with &&)
);

alter table internal.car_holds enable row level security;
revoke all on table internal.car_holds from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------

-- A booking's hold follows its car, period and status. A collision with a block is reported as
-- the bookings' own constraint (bookings_no_overlap), so every caller that already maps it to
-- `car_unavailable` (create_booking, confirm_guest_booking, staff_confirm_guest_contact) answers
-- the same for a blocked car. A new booking that holds nothing yet (a guest's, until the code) is
-- still refused on a blocked car: it could never be confirmed.
create or replace function internal.sync_booking_hold()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

revoke all on function internal.sync_booking_hold() from public, anon, authenticated;

create trigger bookings_sync_hold
  after insert or update of status, confirm_by, contact_confirmed_at, car_id, start_at, end_at
  on public.bookings
  for each row execute function internal.sync_booking_hold();

-- A block's hold; a collision is `block_collides` with the car.
create or replace function internal.sync_block_hold()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    delete from internal.car_holds h where h.block_id = new.id;
  end if;
  begin
    insert into internal.car_holds (car_id, period, block_id)
    values (new.car_id, new.period, new.id);
  exception when exclusion_violation then
    perform internal.fail('block_collides', new.car_id::text);
  end;
  return null;
end
$$;

revoke all on function internal.sync_block_hold() from public, anon, authenticated;

create trigger car_blocks_sync_hold
  after insert or update of car_id, start_at, end_at on public.car_blocks
  for each row execute function internal.sync_block_hold();

-- The bookings that hold a car today.
insert into internal.car_holds (car_id, period, booking_id)
select b.car_id, b.period, b.id
  from public.bookings b
 where internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at);

-- ---------------------------------------------------------------------------------------------
-- RPCs
-- ---------------------------------------------------------------------------------------------

-- What a block over [start_at, end_at) of a car would meet: bookings (holding it or a guest's
-- still waiting for its code) and other blocks. Staff see it before saving.
create or replace function public.staff_block_collisions(
  car_id uuid, start_at timestamptz, end_at timestamptz
)
returns table (
  kind text, id uuid, reference text, status text, from_at timestamptz,
  to_at timestamptz, holds boolean, reason text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  if staff_block_collisions.start_at is null or staff_block_collisions.end_at is null
     or staff_block_collisions.end_at <= staff_block_collisions.start_at then
    perform internal.fail('invalid_period', 'end_at must be after start_at');
  end if;
  return query
    select 'booking'::text, b.id, b.reference, b.status, b.start_at, b.end_at,
           internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at), null::text
      from public.bookings b
     where b.car_id = staff_block_collisions.car_id
       and b.period && tstzrange(staff_block_collisions.start_at, staff_block_collisions.end_at, '[)')
       and (internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at)
            or (b.status = 'pending' and b.confirm_by > now()))
    union all
    select 'block'::text, k.id, null::text, null::text, k.start_at, k.end_at, true, k.reason
      from public.car_blocks k
     where k.car_id = staff_block_collisions.car_id
       and k.period && tstzrange(staff_block_collisions.start_at, staff_block_collisions.end_at, '[)')
     order by 5, 2;
end
$$;

revoke all on function public.staff_block_collisions(uuid, timestamptz, timestamptz) from public, anon, authenticated;
grant execute on function public.staff_block_collisions(uuid, timestamptz, timestamptz)
  to authenticated, service_role;

-- Blocks a car; returns the block. Codes: not_allowed, car_not_found, invalid_period,
-- block_in_past, block_too_long, reason_required, reason_too_long, invalid_text, block_collides.
create or replace function public.staff_block_car(
  car_id uuid, start_at timestamptz, end_at timestamptz, reason text
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  k public.car_blocks;
  why text := btrim(coalesce(staff_block_car.reason, ''));
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  if not exists (select from public.cars c where c.id = staff_block_car.car_id) then
    perform internal.fail('car_not_found', coalesce(staff_block_car.car_id::text, 'car_id'));
  end if;
  if staff_block_car.start_at is null or staff_block_car.end_at is null
     or staff_block_car.end_at <= staff_block_car.start_at then
    perform internal.fail('invalid_period', 'end_at must be after start_at');
  end if;
  if staff_block_car.end_at <= now() then
    perform internal.fail('block_in_past', 'end_at must be in the future');
  end if;
  if staff_block_car.end_at - staff_block_car.start_at > interval '366 days' then
    perform internal.fail('block_too_long', 'at most 366 days');
  end if;
  if why = '' then
    perform internal.fail('reason_required', 'reason');
  end if;
  if char_length(why) > 300 then
    perform internal.fail('reason_too_long', 'at most 300 characters');
  end if;
  if internal.has_hidden_characters(why) then
    perform internal.fail('invalid_text', 'reason');
  end if;
  -- Guest holds whose code lapsed hold nothing; flip them so the history says so.
  perform internal.expire_lapsed_bookings(
    only_car => staff_block_car.car_id,
    only_period => tstzrange(staff_block_car.start_at, staff_block_car.end_at, '[)'));
  insert into public.car_blocks (car_id, start_at, end_at, reason, created_by)
  values (staff_block_car.car_id, staff_block_car.start_at, staff_block_car.end_at, why, auth.uid())
  returning * into k;
  return to_jsonb(k) - 'period';
end
$$;

revoke all on function public.staff_block_car(uuid, timestamptz, timestamptz, text) from public, anon, authenticated;
grant execute on function public.staff_block_car(uuid, timestamptz, timestamptz, text)
  to authenticated, service_role;

-- Removes a block (the car is free again); returns it. Codes: not_allowed, not_found.
create or replace function public.staff_unblock_car(block_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  k public.car_blocks;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  delete from public.car_blocks x where x.id = staff_unblock_car.block_id returning * into k;
  if not found then
    perform internal.fail('not_found', coalesce(staff_unblock_car.block_id::text, 'block_id'));
  end if;
  return to_jsonb(k) - 'period';
end
$$;

revoke all on function public.staff_unblock_car(uuid) from public, anon, authenticated;
grant execute on function public.staff_unblock_car(uuid) to authenticated, service_role;

-- Busy periods now include blocks (the period only: the reason is staff's).
create or replace function public.car_busy_periods("from" timestamptz, "to" timestamptz)
returns table (car_id uuid, start_at timestamptz, end_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
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
$$;
