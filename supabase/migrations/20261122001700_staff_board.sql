-- What the staff board needs beyond the bookings table (docs/bookings.md): the status history of
-- every booking, and the contact of a signed-in customer (name, phone and the account's email,
-- which lives in auth.users) for staff only.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
-- One row per status a booking took, written by triggers (never by the API).
create table public.booking_events (
  id bigint generated always as identity primary key,
  booking_id uuid not null references public.bookings (id) on delete cascade,
  status text not null,
  reason text,
  -- Who made the change: the booking's customer or guest, staff, or the system (seed, service
  -- role, backfill).
  actor text not null,
  -- The staff member or customer who made it, when signed in.
  actor_id uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now()
);

comment on table public.booking_events is
  'Status history of each booking (written by triggers on public.bookings); staff read it.';

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table public.booking_events
  add constraint booking_events_status_known check (
    status in ('pending', 'reserved', 'in_progress', 'completed', 'cancelled', 'rejected')
  ),
  add constraint booking_events_actor_known check (actor in ('customer', 'guest', 'staff', 'system')),
  add constraint booking_events_reason_length check (char_length(reason) <= 500);

create index booking_events_booking_id_created_at_idx
  on public.booking_events (booking_id, created_at, id);
create index booking_events_actor_id_idx on public.booking_events (actor_id);

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- bookings insert → 'pending' at creation (and the stored status when a row is inserted in
-- another one, as the seed does); status change → the new status with its reason.
create or replace function internal.record_booking_event()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  who text;
begin
  if tg_op = 'INSERT' then
    who := case when new.user_id is null then 'guest' else 'customer' end;
    insert into public.booking_events (booking_id, status, actor, actor_id, created_at)
    values (new.id, 'pending', who, case when uid = new.user_id then uid end, new.created_at);
    if new.status <> 'pending' then
      insert into public.booking_events (booking_id, status, reason, actor, created_at)
      values (new.id, new.status, new.status_reason, 'system', new.updated_at);
    end if;
    return null;
  end if;

  who := case
    when uid is not null and uid = new.user_id then 'customer'
    when uid is not null and public.is_admin() then 'staff'
    else 'system'
  end;
  insert into public.booking_events (booking_id, status, reason, actor, actor_id)
  values (
    new.id,
    new.status,
    new.status_reason,
    who,
    case when who in ('customer', 'staff') then uid end
  );
  return null;
end
$$;

-- The contact of signed-in customers for staff: profile name and phone, and the account's email.
-- Staff only (not_allowed otherwise); at most 500 ids per call.
create or replace function public.staff_customer_contacts(user_ids uuid[])
returns table (id uuid, full_name text, phone text, email text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not (public.is_admin() or coalesce(auth.role(), '') = 'service_role') then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  if cardinality(user_ids) > 500 then
    perform internal.fail('invalid_payload', 'at most 500 ids');
  end if;
  return query
    select p.id, p.full_name, p.phone, u.email::text
      from public.profiles p
      join auth.users u on u.id = p.id
     where p.id = any (coalesce(user_ids, '{}'));
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
create trigger bookings_record_event_on_insert
  after insert on public.bookings
  for each row execute function internal.record_booking_event();

create trigger bookings_record_event_on_status_change
  after update of status on public.bookings
  for each row
  when (old.status is distinct from new.status)
  execute function internal.record_booking_event();

-- Bookings that exist already: their creation, and their current status when it moved on.
insert into public.booking_events (booking_id, status, actor, created_at)
select b.id, 'pending', case when b.user_id is null then 'guest' else 'customer' end, b.created_at
  from public.bookings b;
insert into public.booking_events (booking_id, status, reason, actor, created_at)
select b.id, b.status, b.status_reason, 'system', b.updated_at
  from public.bookings b
 where b.status <> 'pending';

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
alter table public.booking_events enable row level security;

create policy "Admins read the status history of every booking"
  on public.booking_events for select to authenticated
  using ((select public.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on table public.booking_events from anon, authenticated;
grant select on table public.booking_events to authenticated;
grant all on table public.booking_events to service_role;

revoke all on function internal.record_booking_event() from public;
revoke all on function public.staff_customer_contacts(uuid[]) from public, anon, authenticated;
grant execute on function public.staff_customer_contacts(uuid[]) to authenticated, service_role;
