-- Bookings that nobody can use to block the fleet (docs/decisions.md, "Public booking that cannot
-- be abused"): the agency's limits in `settings`, a guest booking that holds its car only until a
-- short deadline unless the guest confirms the contact, the `expired` status, and the exact
-- reading of "does this booking hold its car?" for everyone who asks (car_busy_periods, staff
-- status changes, the expiry). Mails, confirmation and create_booking follow in the next
-- migrations.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
alter table public.settings
  -- How long an unconfirmed guest booking holds its car, from the server's receipt.
  add column guest_hold_minutes smallint not null default 45,
  -- A booking starts at most this many days ahead.
  add column booking_horizon_days smallint not null default 365,
  -- Pending bookings at once per guest email or phone (normalised), confirmed or not.
  add column max_pending_per_contact smallint not null default 3,
  -- Pending bookings at once per customer account.
  add column max_pending_per_account smallint not null default 5,
  -- Unconfirmed guest holds at once from one client address (confirmed contacts never count).
  add column max_unconfirmed_per_address smallint not null default 10,
  -- Bookings created per hour by one caller: an account, else a client address (for an address,
  -- guest bookings whose contact is not confirmed).
  add column max_bookings_per_hour smallint not null default 20,
  -- Mails a visitor can cause to one address (confirmation codes, expiry notices); staff
  -- decisions always go.
  add column max_mails_per_address_hour smallint not null default 5,
  add column max_mails_per_address_day smallint not null default 10,
  -- The app's public address, for links in mails (`https://kiraa.dz`, no trailing slash); without
  -- it mails carry the code and tell the guest where to type it.
  add column site_url text;

comment on column public.settings.guest_hold_minutes is
  'Minutes an unconfirmed guest booking holds its car from the server''s receipt (then expired).';
comment on column public.settings.site_url is
  'The app''s public address for links in mails (set by operations, not from the app).';

alter table public.bookings
  -- The language of the guest's mails (fr, en, ar).
  add column locale text not null default 'fr',
  -- Guests only: until when the booking holds its car without a confirmed contact.
  add column confirm_by timestamptz,
  -- Guests only: when the guest proved the email address is theirs (confirm_guest_booking).
  add column contact_confirmed_at timestamptz;

comment on column public.bookings.confirm_by is
  'Guest bookings: the deadline for confirming the contact; an unconfirmed booking past it no longer holds its car and becomes expired.';
comment on column public.bookings.contact_confirmed_at is
  'Guest bookings: when the guest confirmed the email address with the mailed code.';

-- Guest bookings made before confirmation existed count as confirmed (they were never asked).
update public.bookings
   set confirm_by = created_at,
       contact_confirmed_at = created_at
 where user_id is null;

-- Names with control characters or line breaks (refused from now on) are cleaned.
update public.bookings
   set guest_name = trim(regexp_replace(guest_name,
         '[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]+', ' ', 'g'))
 where guest_name ~ '[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]';

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table public.settings
  add constraint settings_guest_hold_range check (guest_hold_minutes between 10 and 240),
  add constraint settings_booking_horizon_range check (booking_horizon_days between 30 and 730),
  add constraint settings_max_pending_per_contact_range check (max_pending_per_contact between 1 and 50),
  add constraint settings_max_pending_per_account_range check (max_pending_per_account between 1 and 100),
  add constraint settings_max_unconfirmed_per_address_range
    check (max_unconfirmed_per_address between 1 and 1000),
  add constraint settings_max_bookings_per_hour_range check (max_bookings_per_hour between 1 and 1000),
  add constraint settings_max_mails_per_address_range check (
    max_mails_per_address_hour between 1 and 100
    and max_mails_per_address_day between max_mails_per_address_hour and 1000
  ),
  add constraint settings_site_url_format check (
    site_url ~ '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-])?$'
    and char_length(site_url) <= 200
  );

alter table public.bookings
  drop constraint bookings_status_known,
  add constraint bookings_status_known check (
    status in ('pending', 'reserved', 'in_progress', 'completed', 'cancelled', 'rejected', 'expired')
  ),
  add constraint bookings_locale_known check (locale in ('fr', 'en', 'ar')),
  -- A guest booking has a deadline; a customer's needs none (their account is theirs).
  add constraint bookings_guest_hold check ((user_id is null) = (confirm_by is not null)),
  add constraint bookings_customer_not_confirmed check (user_id is null or contact_confirmed_at is null),
  -- Staff cannot accept (or start, or complete) a guest booking whose contact is not confirmed.
  add constraint bookings_confirmed_before_acceptance check (
    status in ('pending', 'expired', 'cancelled', 'rejected')
    or user_id is not null
    or contact_confirmed_at is not null
  ),
  -- Only an unconfirmed guest booking expires.
  add constraint bookings_expired_unconfirmed check (
    status <> 'expired' or (user_id is null and contact_confirmed_at is null)
  ),
  -- Names reach mails and staff screens: no control characters, line breaks or bidi overrides.
  add constraint bookings_guest_name_clean check (
    guest_name !~ '[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]'
  );

alter table public.booking_events
  drop constraint booking_events_status_known,
  add constraint booking_events_status_known check (
    status in ('pending', 'reserved', 'in_progress', 'completed', 'cancelled', 'rejected', 'expired')
  );

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- An email as limits count it: lower case, without a `+tag`, and Gmail's dots ignored (all of
-- these reach the same mailbox).
create or replace function internal.email_key(value text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v text := lower(trim(coalesce(value, '')));
  local_part text := split_part(v, '@', 1);
  domain text := split_part(v, '@', 2);
begin
  if v = '' then
    return null;
  end if;
  local_part := split_part(local_part, '+', 1);
  if domain in ('gmail.com', 'googlemail.com') then
    local_part := replace(local_part, '.', '');
    domain := 'gmail.com';
  end if;
  return local_part || '@' || domain;
end
$$;

-- Text a person typed, made safe to show inside a mail: control characters, line breaks, bidi
-- overrides and invisible characters become spaces, spaces are collapsed, a space follows every
-- `.`, `:`, `/`, `@` and `\` that a non-space follows (so no mail client makes a link of it:
-- `evil.com` → `evil. com`), and it is cut to `max_length` characters.
create or replace function internal.mail_safe_text(value text, max_length integer default 60)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v text := coalesce(value, '');
begin
  v := regexp_replace(v, '[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff]',
    ' ', 'g');
  v := trim(regexp_replace(v, '\s+', ' ', 'g'));
  v := regexp_replace(v, '([.:/@\\])(\S)', '\1 \2', 'g');
  if char_length(v) > max_length then
    v := rtrim(left(v, max_length - 1)) || '…';
  end if;
  return v;
end
$$;

-- Whether a booking holds its car now: reserved and in-progress bookings do, and pending ones
-- except a guest booking whose contact is still unconfirmed past its deadline (it is expired in
-- all but name until a write or the periodic job flips it).
create or replace function internal.booking_holds_car(
  status text,
  confirm_by timestamptz,
  contact_confirmed_at timestamptz
)
returns boolean
language sql
stable
set search_path = ''
as $$
  select status in ('reserved', 'in_progress')
    or (status = 'pending' and (confirm_by is null or contact_confirmed_at is not null
                                or confirm_by > now()))
$$;

-- The notification type a status change writes ('expired' never reaches a customer, whose
-- bookings need no confirmation, but has its name).
create or replace function internal.status_notification_type(status text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case status
    when 'reserved' then 'booking_accepted'
    when 'rejected' then 'booking_rejected'
    when 'in_progress' then 'booking_started'
    when 'completed' then 'booking_completed'
    when 'cancelled' then 'booking_cancelled'
    when 'expired' then 'booking_expired'
  end
$$;

-- Flips unconfirmed guest bookings past their deadline to `expired` (reason
-- `contact_not_confirmed`; the guest's mail and the status history follow from the triggers):
-- all of them, or only `only_booking`, or only those of `only_car` overlapping `only_period`; at
-- most `batch` (null: all), skipping rows another transaction is changing. Returns how many.
create or replace function internal.expire_lapsed_bookings(
  only_booking uuid default null,
  only_car uuid default null,
  only_period tstzrange default null,
  batch integer default null
)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
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
$$;

-- When each car is taken between "from" and "to": no personal data, only bookings that hold
-- their car now (an unconfirmed guest booking past its deadline is free, exactly, whether or not
-- the periodic expiry ran).
create or replace function public.car_busy_periods("from" timestamptz, "to" timestamptz)
returns table (car_id uuid, start_at timestamptz, end_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if car_busy_periods."from" is null or car_busy_periods."to" is null
     or car_busy_periods."to" <= car_busy_periods."from" then
    perform internal.fail('invalid_dates', '"to" must be after "from"');
  end if;
  if car_busy_periods."to" - car_busy_periods."from" > interval '800 days' then
    perform internal.fail('invalid_dates', 'the window is at most 800 days');
  end if;
  return query
    select b.car_id, b.start_at, b.end_at
      from public.bookings b
     where b.status in ('pending', 'reserved', 'in_progress')
       and internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at)
       and b.period && tstzrange(car_busy_periods."from", car_busy_periods."to", '[)')
     order by b.car_id, b.start_at;
end
$$;

-- A status change of a guest booking whose contact is not confirmed: past its deadline only
-- `expired` (booking_expired otherwise, e.g. a staff cancellation of a lapsed hold); before it,
-- anything but acceptance (contact_not_confirmed). As a trigger, the rule holds for every writer
-- (staff_set_booking_status, the service role, later RPCs) with the same clear codes; the CHECK
-- bookings_confirmed_before_acceptance is the invariant behind it.
create or replace function internal.guard_unconfirmed_booking()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.status = 'pending' and old.user_id is null and new.contact_confirmed_at is null
     and new.status is distinct from old.status and new.status <> 'expired' then
    if old.confirm_by <= now() then
      perform internal.fail('booking_expired',
        'the guest did not confirm the contact before '
          || to_char(old.confirm_by at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'));
    end if;
    if new.status in ('reserved', 'in_progress', 'completed') then
      perform internal.fail('contact_not_confirmed',
        'the guest has until ' || to_char(old.confirm_by at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
          || ' to confirm the contact');
    end if;
  end if;
  return new;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
create trigger bookings_guard_unconfirmed
  before update of status on public.bookings
  for each row
  when (old.status = 'pending' and old.user_id is null)
  execute function internal.guard_unconfirmed_booking();

-- ---------------------------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------------------------
create index bookings_unconfirmed_confirm_by_idx on public.bookings (confirm_by)
  where status = 'pending' and contact_confirmed_at is null;
create index bookings_pending_guest_email_idx on public.bookings (internal.email_key(guest_email))
  where status = 'pending' and user_id is null;
create index bookings_pending_guest_phone_idx on public.bookings (guest_phone)
  where status = 'pending' and user_id is null;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
-- The agency tunes its limits and hold time (the policy restricts updates to admins); the site
-- URL is set by operations.
grant update (guest_hold_minutes, booking_horizon_days, max_pending_per_contact,
  max_pending_per_account, max_unconfirmed_per_address, max_bookings_per_hour,
  max_mails_per_address_hour, max_mails_per_address_day) on table public.settings to authenticated;

revoke all on function internal.email_key(text) from public;
revoke all on function internal.mail_safe_text(text, integer) from public;
revoke all on function internal.booking_holds_car(text, timestamptz, timestamptz) from public;
revoke all on function internal.expire_lapsed_bookings(uuid, uuid, tstzrange, integer) from public;
revoke all on function internal.guard_unconfirmed_booking() from public;
-- The guest email index calls email_key: whoever writes bookings directly (the service role)
-- evaluates it.
grant execute on function internal.email_key(text) to service_role;
