-- What one source may hold of the fleet (docs/decisions.md, "Who may hold the fleet"). One
-- client address with a catch-all mail domain and made-up phone numbers created and confirmed 26
-- guest bookings of 90 days in 15 s: confirming took a booking out of every count by address, and
-- a confirmed booking holds its car until staff act. Now:
-- - a guest booking whose mailbox is not proven holds nothing: the first proven booking of a
--   car wins (a customer's, or a guest's once the mailed code is typed), and confirming a booking
--   whose car was taken meanwhile answers car_unavailable;
-- - proven bookings the agency has not accepted count against their sources: the mailbox (3), a
--   mail domain that is not a public provider (3: a catch-all domain is one source however many
--   addresses it invents), and the client address (6 on private domains, and at most 10 % of the
--   fleet's car-days over the booking horizon in all, which an airport hall never reaches);
-- - limits by a contact count only what its owner proved: a stranger who types someone's e-mail
--   or phone spends nothing of theirs (a phone is never proven, so it is no limit at all);
-- - one reading of a phone number everywhere (0555…, 00213…, +2130555… are +213555…);
-- - staff see where pending bookings come from and reject a wave in one action.
-- Wrong codes and failed lookups are counted per booking or reference and per client address
-- together, so one person at an airport cannot lock out everyone behind its address.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
-- Mail domains where one person cannot make mailboxes at will (public providers): each mailbox
-- there is a source of its own. Any other domain is one source (a catch-all domain, a company).
create table internal.mail_providers (
  domain text primary key
);

comment on table internal.mail_providers is
  'Public mail providers: their mailboxes count one by one; any other domain counts as one source.';

insert into internal.mail_providers (domain) values
  ('gmail.com'), ('yahoo.com'), ('yahoo.fr'), ('yahoo.co.uk'), ('yahoo.de'), ('ymail.com'),
  ('rocketmail.com'), ('hotmail.com'), ('hotmail.fr'), ('hotmail.co.uk'), ('hotmail.de'),
  ('hotmail.it'), ('hotmail.es'), ('outlook.com'), ('outlook.fr'), ('outlook.de'), ('live.com'),
  ('live.fr'), ('live.co.uk'), ('msn.com'), ('icloud.com'), ('me.com'), ('mac.com'), ('aol.com'),
  ('aol.fr'), ('gmx.com'), ('gmx.fr'), ('gmx.de'), ('gmx.net'), ('web.de'), ('proton.me'),
  ('protonmail.com'), ('yandex.com'), ('yandex.ru'), ('mail.ru'), ('zoho.com'), ('mail.com'),
  ('orange.fr'), ('wanadoo.fr'), ('free.fr'), ('laposte.net'), ('sfr.fr'), ('neuf.fr'),
  ('bbox.fr');

-- Where each booking came from, for the limits and for staff: the client address that created
-- it, the mailbox (a guest's e-mail, or the account's) as limits read it, and its domain. The
-- address is forgotten a day after the booking stops being pending.
create table internal.booking_sources (
  booking_id uuid primary key references public.bookings (id) on delete cascade,
  client_key text,
  mailbox text not null,
  -- Null for an account without an e-mail address.
  domain text,
  created_at timestamptz not null default now()
);

comment on table internal.booking_sources is
  'The client address, mailbox and mail domain of each booking (limits, and staff''s view of waves).';

alter table public.settings
  -- Proven pending bookings (not accepted yet) with one mail domain that is not a public provider.
  add column max_pending_per_domain smallint not null default 3,
  -- Proven pending bookings from one client address with such domains.
  add column max_pending_private_per_address smallint not null default 6,
  -- Share of the fleet's car-days (active cars × horizon) that proven pending bookings from one
  -- client address may hold, in percent.
  add column max_fleet_share_per_address smallint not null default 10,
  -- Guest bookings from one client address in the last hour whose code nobody typed.
  add column max_unconfirmed_per_address_hour smallint not null default 100,
  -- An unconfirmed booking holds nothing now: no count of them at once.
  drop column max_unconfirmed_per_address;

alter table internal.confirmation_failures
  -- The booking the wrong code was for (null when the reference matched none).
  add column booking_id uuid references public.bookings (id) on delete cascade;

alter table internal.guest_lookup_failures
  -- sha256 of the contact as the lookup reads it (no contact is kept in clear).
  add column contact_key text;

-- Wrong codes are counted per booking and address now (internal.confirmation_failures), the
-- address is in internal.booking_sources.
alter table internal.guest_confirmations
  drop column attempts,
  drop column client_key;

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table internal.mail_providers
  add constraint mail_providers_domain_format check (domain ~ '^[a-z0-9-]+(\.[a-z0-9-]+)+$');

alter table internal.booking_sources
  add constraint booking_sources_client_key_length check (char_length(client_key) <= 64),
  add constraint booking_sources_mailbox_length check (char_length(mailbox) between 1 and 320),
  add constraint booking_sources_domain_length check (char_length(domain) between 1 and 255);

alter table public.settings
  add constraint settings_max_pending_per_domain_range check (max_pending_per_domain between 1 and 100),
  add constraint settings_max_pending_private_per_address_range
    check (max_pending_private_per_address between 1 and 500),
  add constraint settings_max_fleet_share_per_address_range
    check (max_fleet_share_per_address between 1 and 100),
  add constraint settings_max_unconfirmed_per_address_hour_range
    check (max_unconfirmed_per_address_hour between 10 and 5000);

alter table internal.guest_lookup_failures
  add constraint guest_lookup_failures_contact_key_format check (contact_key ~ '^[0-9a-f]{64}$');

create index booking_sources_client_key_idx on internal.booking_sources (client_key, created_at)
  where client_key is not null;
create index booking_sources_mailbox_idx on internal.booking_sources (mailbox);
create index booking_sources_domain_idx on internal.booking_sources (domain);
create index confirmation_failures_booking_idx
  on internal.confirmation_failures (booking_id, client_key, failed_at);
create index guest_lookup_failures_reference_client_idx
  on internal.guest_lookup_failures (reference_key, client_key, failed_at);
create index guest_lookup_failures_client_contact_idx
  on internal.guest_lookup_failures (client_key, contact_key, failed_at);

-- Limits read internal.booking_sources now.
drop index public.bookings_pending_guest_email_idx;
drop index public.bookings_pending_guest_phone_idx;

-- A booking holds its car once its contact is proven: reserved and in-progress bookings, a
-- customer's pending booking, a guest's pending booking once the mailed code was typed (guest
-- bookings made before confirmation existed carry contact_confirmed_at). The same rule as
-- internal.booking_holds_car, written out (an index predicate cannot call it for every writer).
alter table public.bookings
  drop constraint bookings_no_overlap,
  add constraint bookings_no_overlap exclude using gist (car_id with =, period with &&)
    where (status in ('reserved', 'in_progress')
           or (status = 'pending' and (confirm_by is null or contact_confirmed_at is not null)));

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- A phone number as Kiraa stores and compares it, whoever typed it where: separators (spaces,
-- dots, dashes, brackets) removed; 00… → +…; an Algerian national number 0XXXXXXXXX →
-- +213XXXXXXXXX; the trunk 0 after +213 dropped (+2130555… → +213555…). Null when the result
-- is not + and 8 to 15 digits. src/domain/phone.ts is the same rule (tests/api/phone.test.ts).
create or replace function internal.normalize_phone(value text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v text := regexp_replace(coalesce(value, ''), '[\s.()\-]', '', 'g');
begin
  if v ~ '^00[1-9]' then
    v := '+' || substr(v, 3);
  elsif v ~ '^0[1-9][0-9]{8}$' then
    v := '+213' || substr(v, 2);
  end if;
  if v ~ '^\+2130[1-9][0-9]{8}$' then
    v := '+213' || substr(v, 6);
  end if;
  if v ~ '^\+[1-9][0-9]{7,14}$' then
    return v;
  end if;
  return null;
end
$$;

-- The two readings (strict for bookings, lenient for lookups) are one now.
drop function internal.normalize_phone(text, boolean);

-- The payload's own form, as create_booking reads it (docs/database.md for the order), with the
-- phone read as everywhere else (internal.normalize_phone, which refuses what it cannot read): the
-- reference, the dates (present, ordered, at most 90 days), the places given, the requests, the
-- payment method, the locale and, for a guest (uid null), a complete, clean contact. Raises the
-- stable code of the first problem; nothing here depends on the time or the catalogue.
create or replace function internal.booking_draft(p jsonb, uid uuid)
returns internal.booking_draft
language plpgsql
stable
set search_path = ''
as $$
declare
  d internal.booking_draft;
begin
  d.id := internal.booking_payload_id(p);

  d.reference := internal.payload_text(p, 'reference');
  if d.reference is null or d.reference !~ '^KR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$' then
    perform internal.fail('invalid_reference', coalesce(d.reference, 'reference is required'));
  end if;

  d.start_at := internal.payload_instant(p, 'start_at');
  d.end_at := internal.payload_instant(p, 'end_at');
  if d.start_at is null or d.end_at is null then
    perform internal.fail('invalid_dates', 'start_at and end_at are required');
  end if;
  if d.end_at <= d.start_at then
    perform internal.fail('invalid_dates', 'end_at must be after start_at');
  end if;
  if d.end_at - d.start_at > interval '90 days' then
    perform internal.fail('rental_too_long', 'a rental lasts at most 90 days');
  end if;

  d.car_id := internal.payload_uuid(p, 'car_id');
  d.pickup_location_id := internal.payload_uuid(p, 'pickup_location_id');
  d.dropoff_location_id := internal.payload_uuid(p, 'dropoff_location_id');
  if d.pickup_location_id is null then
    perform internal.fail('location_not_found', 'pickup_location_id is required');
  end if;
  if d.dropoff_location_id is null then
    perform internal.fail('location_not_found', 'dropoff_location_id is required');
  end if;
  d.driver_option := internal.payload_text(p, 'driver_option');
  d.extras := internal.payload_codes(p, 'extras');
  -- Civil liability is part of every booking; codes are a set, kept in first-seen order.
  d.insurance := array(
    select i.c
      from unnest(array['civil_liability'] || internal.payload_codes(p, 'insurance'))
        with ordinality as i(c, n)
     group by i.c
     order by min(i.n)
  );

  d.additional_requests := nullif(trim(internal.payload_text(p, 'additional_requests')), '');
  if char_length(d.additional_requests) > 500 then
    perform internal.fail('additional_requests_too_long',
      char_length(d.additional_requests) || ' characters');
  end if;

  if internal.payload_text(p, 'payment_method') is distinct from null
     and internal.payload_text(p, 'payment_method') <> 'cash' then
    perform internal.fail('invalid_payload', 'payment_method must be cash');
  end if;

  d.locale := coalesce(internal.payload_text(p, 'locale'), 'fr');
  if d.locale not in ('fr', 'en', 'ar') then
    perform internal.fail('invalid_payload', 'locale must be fr, en or ar');
  end if;

  if uid is null then
    d.guest_name := nullif(trim(internal.payload_text(p, 'guest_name')), '');
    d.guest_phone := nullif(trim(internal.payload_text(p, 'guest_phone')), '');
    d.guest_email := nullif(trim(internal.payload_text(p, 'guest_email')), '');
    if d.guest_name is null or d.guest_phone is null or d.guest_email is null then
      perform internal.fail('guest_contact_required', concat_ws(', ',
        case when d.guest_name is null then 'guest_name' end,
        case when d.guest_phone is null then 'guest_phone' end,
        case when d.guest_email is null then 'guest_email' end));
    end if;
    if char_length(d.guest_name) > 120 then
      perform internal.fail('invalid_payload', 'guest_name is longer than 120 characters');
    end if;
    if d.guest_name ~ '[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]' then
      perform internal.fail('invalid_name',
        'guest_name contains a control character, a line break or a direction override');
    end if;
    if not internal.is_mailable_address(d.guest_email) then
      perform internal.fail('invalid_email', d.guest_email);
    end if;
    if internal.normalize_phone(d.guest_phone) is null then
      perform internal.fail('invalid_phone', d.guest_phone);
    end if;
    d.guest_phone := internal.normalize_phone(d.guest_phone);
  end if;

  d.license_path := internal.payload_text(p, 'license_path');
  d.from_abroad := internal.payload_boolean(p, 'from_abroad', false);
  d.flight_document_path := internal.payload_text(p, 'flight_document_path');
  return d;
end
$$;

-- The domain of a mailbox as limits read it (internal.email_key: googlemail.com is gmail.com).
create or replace function internal.mail_domain(mailbox text)
returns text
language sql
immutable
set search_path = ''
as $$
  select nullif(split_part(lower(trim(coalesce(mailbox, ''))), '@', 2), '')
$$;

-- Whether a domain counts as one source (any domain but a public mail provider's).
create or replace function internal.is_private_mail_domain(domain text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select domain is not null
     and not exists (select from internal.mail_providers m where m.domain = is_private_mail_domain.domain)
$$;

-- Whether a booking holds its car now: reserved and in-progress bookings do, and pending ones
-- whose contact is proven (a customer's; a guest's once the mailed code was typed). An
-- unconfirmed guest booking holds nothing. The exclusion constraint bookings_no_overlap is the
-- same rule.
create or replace function internal.booking_holds_car(
  status text,
  confirm_by timestamptz,
  contact_confirmed_at timestamptz
)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select status in ('reserved', 'in_progress')
    or (status = 'pending' and (confirm_by is null or contact_confirmed_at is not null))
$$;

-- The days of [starts, ends) that fall inside [now, now + horizon).
create or replace function internal.days_within(
  starts timestamptz,
  ends timestamptz,
  horizon_days integer
)
returns numeric
language sql
stable
set search_path = ''
as $$
  select greatest(0, extract(epoch from (
    least(ends, now() + make_interval(days => horizon_days)) - greatest(starts, now())
  )))::numeric / 86400
$$;

-- A limit reached, with its scope in `detail` ({"limit", "retry_after": null, "scope"}): the
-- agency's answer to a pending booking frees a place, so there is no time to name.
create or replace function internal.fail_hold_limit(code text, max_allowed integer, scope text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  perform internal.fail(code, json_build_object(
    'limit', max_allowed, 'retry_after', null, 'scope', scope)::text);
end
$$;

-- What a proven booking may hold (settings; docs/decisions.md "Who may hold the fleet"),
-- counting the proven bookings the agency has not accepted yet (pending, contact proven), except
-- `this_booking`, from the sources of a booking for [starts, ends):
-- - a guest's mailbox: max_pending_per_contact (too_many_pending_for_contact);
-- - a mail domain that is not a public provider: max_pending_per_domain (too_many_pending_for_domain);
-- - the client address: max_pending_private_per_address on such domains, and
--   max_fleet_share_per_address percent of the fleet's car-days over the booking horizon in all
--   (too_many_pending_from_address, scope "private_domains" or "fleet_share").
-- An account's own count (max_pending_per_account) is internal.check_creation_limits'.
-- Concurrent calls of one source wait for each other (advisory locks, always in the same order).
create or replace function internal.check_hold_limits(
  this_booking uuid,
  is_guest boolean,
  mailbox text,
  caller_key text,
  starts timestamptz,
  ends timestamptz
)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  s public.settings;
  mail_domain text := internal.mail_domain(mailbox);
  is_private boolean := internal.is_private_mail_domain(mail_domain);
  lock_key text;
  n integer;
  capacity numeric;
  held numeric;
begin
  select x.* into s from public.settings x where x.id = 1;
  for lock_key in
    select k from unnest(array[
      'holds:address:' || caller_key,
      'holds:mailbox:' || mailbox,
      case when is_private then 'holds:domain:' || mail_domain end
    ]) k where k is not null order by k
  loop
    perform pg_advisory_xact_lock(hashtextextended(lock_key, 0));
  end loop;

  if is_guest then
    select count(*) into n
      from internal.booking_sources src
      join public.bookings b on b.id = src.booking_id
     where src.mailbox = check_hold_limits.mailbox
       and b.user_id is null and b.status = 'pending' and b.contact_confirmed_at is not null
       and b.id is distinct from this_booking;
    if n >= s.max_pending_per_contact then
      perform internal.fail_hold_limit('too_many_pending_for_contact', s.max_pending_per_contact,
        'mailbox');
    end if;
  end if;

  if is_private then
    select count(*) into n
      from internal.booking_sources src
      join public.bookings b on b.id = src.booking_id
     where src.domain = mail_domain
       and b.status = 'pending' and (b.confirm_by is null or b.contact_confirmed_at is not null)
       and b.id is distinct from this_booking;
    if n >= s.max_pending_per_domain then
      perform internal.fail_hold_limit('too_many_pending_for_domain', s.max_pending_per_domain,
        'domain');
    end if;
  end if;

  if caller_key is null then
    return;
  end if;
  if is_private then
    select count(*) into n
      from internal.booking_sources src
      join public.bookings b on b.id = src.booking_id
     where src.client_key = caller_key
       and internal.is_private_mail_domain(src.domain)
       and b.status = 'pending' and (b.confirm_by is null or b.contact_confirmed_at is not null)
       and b.id is distinct from this_booking;
    if n >= s.max_pending_private_per_address then
      perform internal.fail_hold_limit('too_many_pending_from_address',
        s.max_pending_private_per_address, 'private_domains');
    end if;
  end if;

  select count(*) * s.booking_horizon_days into capacity from public.cars c where c.active;
  select coalesce(sum(internal.days_within(b.start_at, b.end_at, s.booking_horizon_days)), 0)
    into held
    from internal.booking_sources src
    join public.bookings b on b.id = src.booking_id
   where src.client_key = caller_key
     and b.status = 'pending' and (b.confirm_by is null or b.contact_confirmed_at is not null)
     and b.id is distinct from this_booking;
  held := held + internal.days_within(starts, ends, s.booking_horizon_days);
  if held * 100 > capacity * s.max_fleet_share_per_address then
    perform internal.fail_hold_limit('too_many_pending_from_address',
      s.max_fleet_share_per_address, 'fleet_share');
  end if;
end
$$;

-- The rates of creation (settings): an account's pending bookings (too_many_pending_for_account)
-- and its bookings and refusals in the last hour (booking_rate_limited); a client address's guest
-- bookings of the last hour whose code nobody typed, and its guest refusals of the last hour
-- (booking_rate_limited). A confirmed booking leaves the address's count at once: a hall of
-- travellers who type their codes never reaches it. Without a known address, no address limit.
create or replace function internal.check_creation_limits(uid uuid, caller_key text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  s public.settings;
  n integer;
  soonest timestamptz;
begin
  select x.* into s from public.settings x where x.id = 1;
  if uid is not null then
    perform pg_advisory_xact_lock(hashtextextended('booking_limits:account:' || uid::text, 0));
    select count(*) into n from public.bookings b where b.user_id = uid and b.status = 'pending';
    if n >= s.max_pending_per_account then
      perform internal.fail_limit('too_many_pending_for_account', s.max_pending_per_account, null);
    end if;
    select count(*), min(x.created_at) into n, soonest
      from (select b.created_at from public.bookings b
             where b.user_id = uid and b.created_at > now() - interval '1 hour'
            union all
            select r.created_at from public.booking_refusals r
             where r.user_id = uid and r.created_at > now() - interval '1 hour') x;
    if n >= s.max_bookings_per_hour then
      perform internal.fail_limit('booking_rate_limited', s.max_bookings_per_hour,
        soonest + interval '1 hour');
    end if;
    return;
  end if;

  if caller_key is null then
    return;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('booking_limits:address:' || caller_key, 0));
  select count(*), min(x.created_at) into n, soonest
    from (select src.created_at
            from internal.booking_sources src
            join public.bookings b on b.id = src.booking_id
           where src.client_key = caller_key
             and b.user_id is null and b.contact_confirmed_at is null
             and src.created_at > now() - interval '1 hour'
          union all
          select r.created_at from public.booking_refusals r
           where r.client_key = caller_key
             and r.user_id is null
             and r.created_at > now() - interval '1 hour') x;
  if n >= s.max_unconfirmed_per_address_hour then
    perform internal.fail_limit('booking_rate_limited', s.max_unconfirmed_per_address_hour,
      soonest + interval '1 hour');
  end if;
end
$$;

-- The mailbox a booking counts against: a guest's e-mail, or the account's (internal.email_key).
create or replace function internal.booking_mailbox(uid uuid, guest_email text)
returns text
language sql
stable
set search_path = ''
as $$
  select coalesce(
    internal.email_key(case when uid is null then guest_email
                            else (select u.email from auth.users u where u.id = uid) end),
    'account:' || uid::text)
$$;

-- Every new booking's sources (internal.booking_sources), whoever writes it: the client address
-- of the request (none for a direct SQL session), its mailbox and domain.
create or replace function internal.record_booking_source()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  mailbox text := internal.booking_mailbox(new.user_id, new.guest_email);
begin
  insert into internal.booking_sources (booking_id, client_key, mailbox, domain, created_at)
  values (new.id, left(internal.client_address_key(), 64), mailbox, internal.mail_domain(mailbox),
    new.created_at)
  on conflict (booking_id) do nothing;
  return null;
end
$$;

-- The old limits, in one function for guests and accounts.
drop function internal.check_booking_limits(uuid, text, text, text);

-- Stores a booking (status pending) after checking every rule again: the payload's form
-- (internal.booking_draft), what the world decides (internal.check_booking_world), the creation
-- rates, what its sources may hold, the reference, the car's availability. A customer's booking
-- holds its car at once (the exclusion constraint); a guest's holds nothing until the mailed
-- code is typed, and is refused at once when a proven booking holds the car. Idempotent on p.id
-- (the same id with the same request answers the same; with another request,
-- idempotency_key_reused). Answers with the booking's public projection.
create or replace function public.create_booking(p jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  is_service boolean := coalesce(auth.role(), '') = 'service_role';
  d internal.booking_draft;
  new_id uuid;
  request_hash text;
  stored public.bookings;
  caller_key text;
  mailbox text;
  code text;
  price jsonb;
  failed_constraint text;
begin
  new_id := internal.booking_payload_id(p);
  request_hash := internal.booking_request_hash(p, uid);

  select b.* into stored from public.bookings b where b.id = new_id;
  if found then
    return internal.replay_booking(stored, request_hash);
  end if;

  d := internal.booking_draft(p, uid);
  price := internal.check_booking_world(d);
  mailbox := internal.booking_mailbox(uid, d.guest_email);

  -- The limits (the service role, staff tooling, has none).
  if not is_service then
    caller_key := internal.client_address_key();
    perform internal.check_creation_limits(uid, caller_key);
    perform internal.check_hold_limits(null, uid is null, mailbox, caller_key, d.start_at, d.end_at);
    -- The same id may have been stored by a concurrent call of this caller while it waited.
    select b.* into stored from public.bookings b where b.id = new_id;
    if found then
      return internal.replay_booking(stored, request_hash);
    end if;
  end if;

  select b.* into stored from public.bookings b where b.reference = d.reference;
  if found then
    if stored.id = new_id then
      return internal.replay_booking(stored, request_hash);
    end if;
    perform internal.fail('reference_taken', d.reference);
  end if;

  -- A guest booking holds nothing until confirmed, so the constraint does not see it: a car held
  -- by a proven booking is refused now, as it is for a customer.
  if uid is null and exists (
    select from public.bookings b
     where b.car_id = d.car_id
       and b.period && tstzrange(d.start_at, d.end_at, '[)')
       and internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at)
  ) then
    perform internal.fail('car_unavailable', d.car_id::text);
  end if;

  begin
    insert into public.bookings (
      id, reference, user_id, guest_name, guest_phone, guest_email, car_id, start_at, end_at,
      pickup_location_id, dropoff_location_id, driver_option, license_path, flight_document_path,
      from_abroad, additional_requests, extras, insurance, payment_method, payment_status, price,
      total_dzd, status, locale, confirm_by
    ) values (
      new_id, d.reference, uid, d.guest_name, d.guest_phone, d.guest_email, d.car_id, d.start_at,
      d.end_at, d.pickup_location_id, d.dropoff_location_id, d.driver_option, d.license_path,
      d.flight_document_path, d.from_abroad, d.additional_requests, d.extras, d.insurance, 'cash',
      'unpaid', price, (price ->> 'total')::integer, 'pending', d.locale,
      case when uid is null
        then now() + make_interval(mins => coalesce(
          (select s.guest_hold_minutes from public.settings s where s.id = 1), 45)) end
    )
    on conflict (id) do nothing
    returning * into stored;
  exception
    when exclusion_violation or unique_violation then
      -- A concurrent call with the same id may have committed it while this insert waited on
      -- that row: then it is the same booking, not a conflict.
      get stacked diagnostics failed_constraint = constraint_name;
      select b.* into stored from public.bookings b where b.id = new_id;
      if found then
        return internal.replay_booking(stored, request_hash);
      end if;
      if failed_constraint = 'bookings_no_overlap' then
        perform internal.fail('car_unavailable', d.car_id::text);
      elsif failed_constraint = 'bookings_reference_key' then
        perform internal.fail('reference_taken', d.reference);
      end if;
      raise;
  end;

  if stored.id is null then
    -- The same id arrived twice at once and the other call stored it first.
    select b.* into stored from public.bookings b where b.id = new_id;
    return internal.replay_booking(stored, request_hash);
  end if;

  insert into internal.booking_requests (booking_id, request_hash) values (stored.id, request_hash);
  if uid is null then
    code := internal.new_confirmation_code();
    insert into internal.guest_confirmations (booking_id, code_hash)
    values (stored.id, internal.confirmation_code_hash(stored.id, code));
    perform internal.enqueue_guest_mail(stored, 'guest_confirmation', code);
  end if;
  return internal.booking_public_json(stored);
end
$$;

-- Reports a booking the server refused when the device sent it (20261125400200_refused_bookings
-- for the contract), with the creation rates of create_booking (a refusal shares the hourly
-- budget, so a script cannot alternate the two RPCs).
create or replace function public.report_refused_booking(p jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  is_service boolean := coalesce(auth.role(), '') = 'service_role';
  new_id uuid;
  request_hash text;
  stored public.bookings;
  refusal public.booking_refusals;
  d internal.booking_draft;
  caller_key text;
  refused_code text;
  refused_detail text;
  to_email text;
  m record;
  was_notified boolean := false;
begin
  new_id := internal.booking_payload_id(p);
  request_hash := internal.booking_request_hash(p, uid);

  select b.* into stored from public.bookings b where b.id = new_id;
  if found then
    return jsonb_build_object('status', 'created',
      'booking', internal.replay_booking(stored, request_hash));
  end if;

  -- One report per id at a time: concurrent replays wait and then read the recorded answer.
  perform pg_advisory_xact_lock(hashtextextended('booking_refusal:' || new_id::text, 0));
  select r.* into refusal from public.booking_refusals r where r.id = new_id;
  if found then
    return internal.replay_refusal(refusal, request_hash);
  end if;

  d := internal.booking_draft(p, uid);
  if not is_service then
    caller_key := internal.client_address_key();
    perform internal.check_creation_limits(uid, caller_key);
  end if;

  -- create_booking itself decides, in a subtransaction that is always undone.
  begin
    perform public.create_booking(p);
    raise exception using errcode = 'KR001', message = 'booking_would_be_created';
  exception
    when sqlstate 'KR001' then
      refused_code := null;
    when sqlstate 'P0001' then
      get stacked diagnostics refused_code = message_text, refused_detail = pg_exception_detail;
  end;
  if refused_code is null then
    perform internal.fail('booking_not_refused',
      'create_booking accepts this booking now: send it again');
  end if;
  if not internal.is_final_refusal(refused_code) then
    raise exception using errcode = 'P0001', message = refused_code,
      detail = coalesce(refused_detail, '');
  end if;

  insert into public.booking_refusals (id, reference, user_id, car_id, start_at, end_at, code,
    locale, guest_email, guest_phone, client_key, request_hash)
  values (new_id, d.reference, uid, d.car_id, d.start_at, d.end_at, refused_code, d.locale,
    d.guest_email, d.guest_phone, caller_key, request_hash)
  returning * into refusal;

  if uid is null then
    to_email := d.guest_email;
  else
    select u.email into to_email from auth.users u where u.id = uid;
    insert into public.notifications (user_id, booking_id, type, reference, reason_code)
    values (uid, null, 'booking_refused', d.reference, refused_code);
  end if;
  if to_email is not null then
    select x.subject, x.body_text into m from internal.refusal_mail(d, refused_code) x;
    was_notified := internal.enqueue_mail(to_email, m.subject, m.body_text, new_id, 'booking_refused',
      d.locale, true);
  end if;
  update public.booking_refusals r set notified = was_notified
   where r.id = new_id
  returning * into refusal;
  return internal.replay_refusal(refusal, request_hash);
end
$$;

-- A guest confirms the e-mail address of their booking with the mailed code (from the app, or
-- the mail's link). Answers, without raising, so that a wrong code is counted:
--   {"confirmed": true, "booking": <public projection>} — also when confirmed already;
--   {"confirmed": false, "reason": "invalid_confirmation_code"} — wrong code, or no such guest
--     booking (the same answer, so references cannot be probed);
--   {"confirmed": false, "reason": "confirmation_attempts_exceeded"} — 5 wrong codes from this
--     client address for this code (a new code starts afresh), or 30 for the booking from anyone;
--   {"confirmed": false, "reason": "booking_expired"} — the deadline passed;
--   {"confirmed": false, "reason": "invalid_status_transition"} — staff closed the booking;
--   {"confirmed": false, "reason": "car_unavailable", "booking"} — a proven booking took the car
--     first: this one is over (expired, reason car_unavailable);
--   {"confirmed": false, "reason": <a hold limit>, "detail"} — its sources hold enough already
--     (internal.check_hold_limits): it stays unconfirmed until its deadline.
-- Raises rate_limited after 300 wrong codes an hour from one client address (a flood: a hall of
-- travellers mistyping never comes near; each booking keeps its own count).
create or replace function public.confirm_guest_booking(reference text, code text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller text := coalesce(internal.client_address_key(), 'unknown');
  ref text := internal.normalize_reference(confirm_guest_booking.reference);
  given text := regexp_replace(coalesce(confirm_guest_booking.code, ''), '[\s-]', '', 'g');
  b public.bookings;
  c internal.guest_confirmations;
  src internal.booking_sources;
  n integer;
  total integer;
  oldest timestamptz;
  refused_code text;
  refused_detail text;
begin
  perform internal.require_writable();
  perform pg_advisory_xact_lock(hashtextextended('confirm_guest_booking:' || caller, 0));
  select count(*), min(f.failed_at) into n, oldest
    from internal.confirmation_failures f
   where f.client_key = caller and f.failed_at > now() - interval '1 hour';
  if n >= 300 then
    perform internal.fail('rate_limited', json_build_object('limit', 300, 'scope', 'address',
      'retry_after', oldest + interval '1 hour')::text);
  end if;

  if ref is not null then
    select x.* into b from public.bookings x
     where x.reference = ref and x.user_id is null
       for update;
  end if;
  if b.id is not null then
    select x.* into c from internal.guest_confirmations x where x.booking_id = b.id for update;
  end if;
  if b.id is null or c.booking_id is null or given !~ '^[0-9]{8}$' then
    insert into internal.confirmation_failures (client_key, booking_id) values (caller, b.id);
    return jsonb_build_object('confirmed', false, 'reason', 'invalid_confirmation_code');
  end if;

  if b.contact_confirmed_at is null then
    if internal.expire_lapsed_bookings(only_booking => b.id) > 0 or b.status = 'expired' then
      select x.* into b from public.bookings x where x.id = b.id;
      if b.status_reason = 'car_unavailable' then
        return jsonb_build_object('confirmed', false, 'reason', 'car_unavailable',
          'booking', internal.booking_public_json(b));
      end if;
      return jsonb_build_object('confirmed', false, 'reason', 'booking_expired');
    end if;
    if b.status <> 'pending' then
      return jsonb_build_object('confirmed', false, 'reason', 'invalid_status_transition');
    end if;
    select count(*) filter (where f.client_key = caller and f.failed_at >= c.last_sent_at),
           count(*)
      into n, total
      from internal.confirmation_failures f
     where f.booking_id = b.id;
    if n >= 5 or total >= 30 then
      return jsonb_build_object('confirmed', false, 'reason', 'confirmation_attempts_exceeded');
    end if;
  end if;

  if internal.confirmation_code_hash(b.id, given) <> c.code_hash then
    insert into internal.confirmation_failures (client_key, booking_id) values (caller, b.id);
    return jsonb_build_object('confirmed', false, 'reason', 'invalid_confirmation_code');
  end if;

  if b.contact_confirmed_at is null then
    select x.* into src from internal.booking_sources x where x.booking_id = b.id;
    begin
      perform internal.check_hold_limits(b.id, true,
        coalesce(src.mailbox, internal.email_key(b.guest_email)), src.client_key,
        b.start_at, b.end_at);
    exception when sqlstate 'P0001' then
      get stacked diagnostics refused_code = message_text, refused_detail = pg_exception_detail;
      return jsonb_build_object('confirmed', false, 'reason', refused_code,
        'detail', refused_detail::jsonb);
    end;
    begin
      update public.bookings x set contact_confirmed_at = now() where x.id = b.id returning x.* into b;
    exception when exclusion_violation then
      update public.bookings x
         set status = 'expired', status_reason = 'car_unavailable'
       where x.id = b.id
      returning x.* into b;
      return jsonb_build_object('confirmed', false, 'reason', 'car_unavailable',
        'booking', internal.booking_public_json(b));
    end;
    update internal.guest_confirmations x set confirmed_at = now() where x.booking_id = b.id;
    perform internal.enqueue_guest_mail(b, 'booking_received');
  end if;
  return jsonb_build_object('confirmed', true, 'booking', internal.booking_public_json(b));
end
$$;

-- Mails a new confirmation code for an unconfirmed guest booking; the booking's id (generated on
-- the device that made it) is the proof. Unchanged (20261125200300_guest_confirmation) but for
-- the wrong-code count, which a new code restarts by itself (counted since `last_sent_at`).
create or replace function public.resend_guest_confirmation(booking_id uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  b public.bookings;
  c internal.guest_confirmations;
  new_code text;
  left_after integer;
begin
  select x.* into b from public.bookings x
   where x.id = resend_guest_confirmation.booking_id and x.user_id is null
     for update;
  if not found then
    perform internal.fail('not_found', coalesce(resend_guest_confirmation.booking_id::text, 'booking_id'));
  end if;
  if b.contact_confirmed_at is not null then
    return jsonb_build_object('sent', false, 'reason', 'already_confirmed');
  end if;
  if internal.expire_lapsed_bookings(only_booking => b.id) > 0 or b.status = 'expired' then
    return jsonb_build_object('sent', false, 'reason', 'booking_expired');
  end if;
  if b.status <> 'pending' then
    return jsonb_build_object('sent', false, 'reason', 'invalid_status_transition');
  end if;
  select x.* into c from internal.guest_confirmations x where x.booking_id = b.id for update;
  if not found then
    perform internal.fail('not_found', b.id::text);
  end if;
  if c.sends >= 4 then
    return jsonb_build_object('sent', false, 'reason', 'resend_limited', 'resends_left', 0,
      'retry_after', null);
  end if;
  if c.last_sent_at > now() - interval '1 minute' then
    return jsonb_build_object('sent', false, 'reason', 'resend_limited',
      'resends_left', 4 - c.sends, 'retry_after', c.last_sent_at + interval '1 minute');
  end if;

  new_code := internal.new_confirmation_code();
  if not internal.enqueue_guest_mail(b, 'guest_confirmation', new_code) then
    return jsonb_build_object('sent', false, 'reason', 'mail_rate_limited');
  end if;
  update internal.guest_confirmations x
     set code_hash = internal.confirmation_code_hash(b.id, new_code),
         sends = x.sends + 1,
         last_sent_at = now()
   where x.booking_id = b.id
  returning 4 - x.sends into left_after;
  return jsonb_build_object('sent', true, 'confirm_by', b.confirm_by, 'resends_left', left_after);
end
$$;

-- A guest's booking for a reference (read the Crockford way) and the guest's email or phone;
-- null for a wrong reference and a wrong contact alike (answering rather than raising lets the
-- failure be counted). Failed lookups in the last 15 minutes are counted so that no one person
-- can lock out another (docs/decisions.md, "Guest lookup"); rate_limited (detail {"limit",
-- "retry_after", "scope"}) when:
-- - this client address gave settings.lookup_failures_per_reference wrong contacts for this
--   reference (scope "reference"; even with the right contact then, else the lock would tell
--   right from wrong), or every address together six times as many (a botnet);
-- - this client address tried 20 references with this one contact (scope "contact");
-- - this client address failed settings.lookup_failures_per_address times (scope "address": a
--   flood; a hall of travellers never comes near).
create or replace function public.find_guest_booking(reference text, contact text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller text := coalesce(internal.client_address_key(), 'unknown');
  ref text := internal.normalize_reference(find_guest_booking.reference);
  ref_key text := coalesce(ref, '(malformed)');
  given text := trim(coalesce(find_guest_booking.contact, ''));
  phone text := internal.normalize_phone(given);
  lookup_key text;
  window_start timestamptz := now() - interval '15 minutes';
  per_reference integer;
  per_address integer;
  n integer;
  total integer;
  oldest timestamptz;
  b public.bookings;
begin
  perform internal.require_writable();
  select coalesce(max(s.lookup_failures_per_reference), 5),
         coalesce(max(s.lookup_failures_per_address), 1000)
    into per_reference, per_address
    from public.settings s where s.id = 1;
  lookup_key := encode(extensions.digest(
    case when position('@' in given) > 0 then coalesce(internal.email_key(given), '')
         else coalesce(phone, lower(given)) end, 'sha256'), 'hex');

  -- Concurrent guesses count each other: the address, then the reference (always this order).
  perform pg_advisory_xact_lock(hashtextextended('guest_lookup:address:' || caller, 0));
  perform pg_advisory_xact_lock(hashtextextended('guest_lookup:reference:' || ref_key, 0));

  if ref is not null then
    select count(*) filter (where f.client_key = caller), count(*), min(f.failed_at)
      into n, total, oldest
      from internal.guest_lookup_failures f
     where f.reference_key = ref_key and f.failed_at > window_start;
    if n >= per_reference or total >= 6 * per_reference then
      perform internal.fail('rate_limited', json_build_object(
        'limit', per_reference, 'scope', 'reference',
        'retry_after', to_char((oldest + interval '15 minutes') at time zone 'UTC',
          'YYYY-MM-DD"T"HH24:MI:SS"Z"'))::text);
    end if;
  end if;
  select count(*), min(f.failed_at) into n, oldest
    from internal.guest_lookup_failures f
   where f.client_key = caller and f.contact_key = lookup_key
     and f.failed_at > window_start;
  if n >= 20 then
    perform internal.fail('rate_limited', json_build_object(
      'limit', 20, 'scope', 'contact',
      'retry_after', to_char((oldest + interval '15 minutes') at time zone 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS"Z"'))::text);
  end if;
  select count(*), min(f.failed_at) into n, oldest
    from internal.guest_lookup_failures f
   where f.client_key = caller and f.failed_at > window_start;
  if n >= per_address then
    perform internal.fail('rate_limited', json_build_object(
      'limit', per_address, 'scope', 'address',
      'retry_after', to_char((oldest + interval '15 minutes') at time zone 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS"Z"'))::text);
  end if;

  if ref is not null and given <> '' then
    select x.* into b from public.bookings x where x.reference = ref and x.user_id is null;
    if found then
      if position('@' in given) > 0 then
        if lower(given) = lower(b.guest_email) then
          return internal.booking_json(b);
        end if;
      elsif phone is not null and phone = b.guest_phone then
        return internal.booking_json(b);
      end if;
    end if;
  end if;

  insert into internal.guest_lookup_failures (reference_key, client_key, contact_key)
  values (left(ref_key, 64), left(caller, 64), lookup_key);
  return null;
end
$$;

-- check-upload's verdict on a file: a refused file refuses the pending bookings that use it (an
-- unconfirmed guest booking past its deadline expires instead, as the minute's job would).
create or replace function public.edge_record_file_check(
  bucket text,
  file_name text,
  verdict text,
  detected_type text default null,
  reason text default null
)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  refused jsonb := '[]'::jsonb;
  using_file record;
begin
  insert into internal.upload_checks as c (bucket_id, name, verdict, detected_type, reason)
  values (bucket, file_name, verdict, detected_type, reason)
  on conflict (bucket_id, name) do update
    set verdict = excluded.verdict, detected_type = excluded.detected_type,
        reason = excluded.reason, checked_at = now();
  if verdict = 'rejected' then
    for using_file in
      select b.id
        from public.bookings b
       where b.status = 'pending'
         and ((bucket = 'licenses' and b.license_path = file_name)
           or (bucket = 'flight-documents' and b.flight_document_path = file_name))
    loop
      perform internal.expire_lapsed_bookings(only_booking => using_file.id);
    end loop;
    with refused_bookings as (
      update public.bookings b
         set status = 'rejected',
             status_reason = case b.locale
               when 'en' then 'Document refused: the file sent is not a valid PDF, JPEG, PNG or WebP.'
               when 'ar' then 'رُفض المستند: الملف المرسل ليس ملف PDF أو JPEG أو PNG أو WebP صالحًا.'
               else 'Document refusé : le fichier envoyé n''est pas un PDF, JPEG, PNG ou WebP valide.'
             end
       where b.status = 'pending'
         and ((bucket = 'licenses' and b.license_path = file_name)
           or (bucket = 'flight-documents' and b.flight_document_path = file_name))
      returning b.id
    )
    select coalesce(jsonb_agg(r.id), '[]'::jsonb) into refused from refused_bookings r;
  end if;
  return jsonb_build_object('verdict', verdict, 'refused_bookings', refused);
end
$$;

-- The words of guest mails in one language (an unconfirmed request holds no car: the deadline
-- line and the expiry say so; 20261126100100_fleet_holds) (fr, en, ar; anything else reads French).
create or replace function internal.mail_texts(locale text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case locale
    when 'en' then jsonb_build_object(
      'greeting', 'Hello,',
      'footer', 'Kiraa · Algiers time (UTC+1)',
      'find_booking', 'Find your booking with its reference on the "Find my booking" page. '
        || 'To change or cancel it, contact the agency.',
      'reference', 'Reference: ', 'car', 'Car: ', 'pickup', 'Pickup: ', 'return', 'Return: ',
      'total', 'Total: ', 'total_suffix', ' DZD, cash at pickup', 'reason', 'Reason: ',
      'name', 'Name given when booking: ', 'separator', ', ',
      'code', 'Confirmation code: ', 'link', 'Link: ',
      'guest_confirmation', 'Confirm your email address',
      'guest_confirmation_body', 'A Kiraa booking request was made with this email address. '
        || 'To confirm it, type this code in the app or open the link below.',
      'no_link', 'Open Kiraa, go to the "Find my booking" page and type the reference and the code.',
      'deadline', 'The car is yours once you confirm, if nobody has booked it first. Without a '
        || 'confirmation before {deadline} (Algiers time), the request is cancelled.',
      'ignore', 'If you did not make this request, ignore this mail: nothing will be booked.',
      'booking_received', 'Booking request received',
      'booking_received_body', 'Your email address is confirmed. Our team is looking at your '
        || 'request and will answer shortly.',
      'booking_accepted', 'Booking confirmed',
      'booking_accepted_body', 'Good news: your booking is confirmed. The car is waiting for you.',
      'booking_rejected', 'Booking declined',
      'booking_rejected_body', 'We are sorry: your booking could not be accepted.',
      'booking_started', 'Rental started',
      'booking_started_body', 'Your rental has started. Have a good trip!',
      'booking_completed', 'Rental completed',
      'booking_completed_body', 'Your rental is complete. Thank you for choosing Kiraa!',
      'booking_cancelled', 'Booking cancelled',
      'booking_cancelled_body', 'Your booking has been cancelled.',
      'booking_expired', 'Booking request expired',
      'booking_expired_body', 'Your booking request has expired: the email address was not '
        || 'confirmed in time. You can make a new request in the app.')
    when 'ar' then jsonb_build_object(
      'greeting', 'مرحبا،',
      'footer', 'كراء · بتوقيت الجزائر (UTC+1)',
      'find_booking', 'يمكنك العثور على حجزك بمرجعه في صفحة «العثور على حجزي». '
        || 'للتعديل أو الإلغاء، اتصل بالوكالة.',
      'reference', 'المرجع: ', 'car', 'السيارة: ', 'pickup', 'الاستلام: ', 'return', 'الإرجاع: ',
      'total', 'المجموع: ', 'total_suffix', ' دج، نقدا عند الاستلام', 'reason', 'السبب: ',
      'name', 'الاسم المقدم عند الحجز: ', 'separator', '، ',
      'code', 'رمز التأكيد: ', 'link', 'الرابط: ',
      'guest_confirmation', 'أكد عنوان بريدك الإلكتروني',
      'guest_confirmation_body', 'طُلب حجز في كراء بعنوان البريد الإلكتروني هذا. '
        || 'لتأكيده، أدخل هذا الرمز في التطبيق أو افتح الرابط أدناه.',
      'no_link', 'افتح تطبيق كراء، ثم صفحة «العثور على حجزي»، وأدخل المرجع والرمز.',
      'deadline', 'تُحجز لك السيارة عند التأكيد، إن لم يحجزها أحد قبلك. إذا لم يتم التأكيد قبل '
        || '{deadline} (بتوقيت الجزائر)، يُلغى الطلب.',
      'ignore', 'إذا لم تكن صاحب هذا الطلب، تجاهل هذه الرسالة: لن يُحجز أي شيء.',
      'booking_received', 'تم استلام طلب الحجز',
      'booking_received_body', 'تم تأكيد بريدك الإلكتروني. يدرس فريقنا طلبك وسيرد عليك في أقرب وقت.',
      'booking_accepted', 'تم تأكيد الحجز',
      'booking_accepted_body', 'خبر سار: تم تأكيد حجزك. السيارة في انتظارك.',
      'booking_rejected', 'تم رفض الحجز',
      'booking_rejected_body', 'نأسف، تعذر قبول حجزك.',
      'booking_started', 'بدأت فترة الكراء',
      'booking_started_body', 'بدأت فترة الكراء. رحلة سعيدة!',
      'booking_completed', 'انتهت فترة الكراء',
      'booking_completed_body', 'انتهت فترة الكراء. شكرا لاختيارك كراء!',
      'booking_cancelled', 'تم إلغاء الحجز',
      'booking_cancelled_body', 'تم إلغاء حجزك.',
      'booking_expired', 'انتهت صلاحية طلب الحجز',
      'booking_expired_body', 'انتهت صلاحية طلب الحجز: لم يتم تأكيد البريد الإلكتروني في الوقت '
        || 'المحدد. يمكنك تقديم طلب جديد في التطبيق.')
    else jsonb_build_object(
      'greeting', 'Bonjour,',
      'footer', 'Kiraa · heure d''Alger (UTC+1)',
      'find_booking', 'Retrouvez votre réservation avec sa référence sur la page « Trouver ma '
        || 'réservation ». Pour la modifier ou l''annuler, contactez l''agence.',
      'reference', 'Référence : ', 'car', 'Voiture : ', 'pickup', 'Prise en charge : ',
      'return', 'Retour : ', 'total', 'Total : ',
      'total_suffix', ' DZD, en espèces à la prise en charge', 'reason', 'Motif : ',
      'name', 'Nom indiqué lors de la réservation : ', 'separator', ', ',
      'code', 'Code de confirmation : ', 'link', 'Lien : ',
      'guest_confirmation', 'Confirmez votre adresse e-mail',
      'guest_confirmation_body', 'Une demande de réservation Kiraa a été faite avec cette adresse '
        || 'e-mail. Pour la confirmer, saisissez ce code dans l''application ou ouvrez le lien '
        || 'ci-dessous.',
      'no_link', 'Ouvrez Kiraa, page « Trouver ma réservation », et saisissez la référence et le code.',
      'deadline', 'La voiture vous est réservée dès votre confirmation, si personne ne l''a réservée '
        || 'avant vous. Sans confirmation avant le {deadline} (heure d''Alger), la demande est '
        || 'annulée.',
      'ignore', 'Si vous n''êtes pas à l''origine de cette demande, ignorez ce message : rien ne '
        || 'sera réservé.',
      'booking_received', 'Demande de réservation reçue',
      'booking_received_body', 'Votre adresse e-mail est confirmée. Notre équipe étudie votre '
        || 'demande et vous répond au plus vite.',
      'booking_accepted', 'Réservation confirmée',
      'booking_accepted_body', 'Bonne nouvelle : votre réservation est confirmée. La voiture vous attend.',
      'booking_rejected', 'Réservation refusée',
      'booking_rejected_body', 'Nous sommes désolés : votre réservation n''a pas pu être acceptée.',
      'booking_started', 'Location commencée',
      'booking_started_body', 'Votre location a commencé. Bonne route !',
      'booking_completed', 'Location terminée',
      'booking_completed_body', 'Votre location est terminée. Merci d''avoir choisi Kiraa !',
      'booking_cancelled', 'Réservation annulée',
      'booking_cancelled_body', 'Votre réservation a été annulée.',
      'booking_expired', 'Demande de réservation expirée',
      'booking_expired_body', 'Votre demande de réservation a expiré : l''adresse e-mail n''a pas '
        || 'été confirmée à temps. Vous pouvez refaire une demande dans l''application.')
  end
$$;

-- Status change by anyone but the customer themself → a notification for a signed-in customer,
-- a mail for a guest; a customer's own cancellation writes nothing. A guest booking whose car a
-- proven booking took while it waited for its code (expired, car_unavailable) mails nothing: the
-- guest is told at that moment, by the page where the code was typed.
create or replace function internal.on_booking_status_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  kind text := internal.status_notification_type(new.status);
begin
  if kind is null then
    return null;
  end if;
  if new.user_id is not null then
    if new.user_id is distinct from auth.uid() then
      insert into public.notifications (user_id, booking_id, type, reference, reason, reason_code)
      values (new.user_id, new.id, kind, new.reference,
        case when new.status in ('rejected', 'cancelled') then nullif(trim(new.status_reason), '') end,
        case when new.status = 'expired' then new.status_reason end);
      if kind in ('booking_accepted', 'booking_rejected', 'booking_cancelled') then
        perform internal.enqueue_customer_mail(new, kind);
      end if;
    end if;
  elsif not (new.status = 'expired' and new.status_reason = 'car_unavailable') then
    perform internal.enqueue_guest_mail(new, kind);
  end if;
  return null;
end
$$;

-- The periodic job (every minute): expires unconfirmed guest bookings past their deadline, then
-- forgets what limits no longer need: wrong codes and failed lookups older than a day, the client
-- address of bookings that stopped being pending a day ago, refusals (addresses after a day, rows
-- after 30 days), dropped-mail logs after 30 days. Returns how many bookings it expired.
create or replace function internal.expire_unconfirmed_bookings(batch integer default 500)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  expired integer := internal.expire_lapsed_bookings(batch => greatest(coalesce(batch, 500), 1));
begin
  delete from internal.confirmation_failures f where f.failed_at < now() - interval '1 day';
  update internal.booking_sources src
     set client_key = null
    from public.bookings b
   where b.id = src.booking_id
     and src.client_key is not null
     and b.status <> 'pending'
     and b.updated_at < now() - interval '1 day';
  delete from internal.mail_dropped d where d.created_at < now() - interval '30 days';
  update public.booking_refusals r
     set client_key = null
   where r.client_key is not null and r.created_at < now() - interval '1 day';
  delete from public.booking_refusals r where r.created_at < now() - interval '30 days';
  delete from internal.guest_lookup_failures f where f.failed_at < now() - interval '1 day';
  return expired;
end
$$;

-- Where the pending bookings come from, for staff (docs/bookings.md, "Waves"): one row per client
-- address and per mail domain that is not a public provider, with its pending bookings (proven
-- and not), the car-days they hold over the booking horizon, when the first and the last came,
-- and a few references; the 20 largest, largest first.
create or replace function public.staff_pending_sources()
returns table (
  kind text,
  source text,
  pending integer,
  unconfirmed integer,
  car_days numeric,
  first_at timestamptz,
  last_at timestamptz,
  refs text[]
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  horizon integer := coalesce(
    (select s.booking_horizon_days from public.settings s where s.id = 1), 365);
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  return query
    with pending as (
      select src.client_key, src.domain, b.reference, b.created_at,
             b.contact_confirmed_at is null and b.user_id is null as unproven,
             case when internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at)
               then internal.days_within(b.start_at, b.end_at, horizon) else 0 end as days
        from internal.booking_sources src
        join public.bookings b on b.id = src.booking_id
       where b.status = 'pending'
    ),
    grouped as (
      select 'address'::text as kind, p.client_key as source, p.reference, p.created_at,
             p.unproven, p.days
        from pending p where p.client_key is not null
      union all
      select 'domain', p.domain, p.reference, p.created_at, p.unproven, p.days
        from pending p where internal.is_private_mail_domain(p.domain)
    )
    select g.kind, g.source, count(*)::integer, count(*) filter (where g.unproven)::integer,
           round(sum(g.days), 1), min(g.created_at), max(g.created_at),
           (array_agg(g.reference order by g.created_at desc))[1:5]
      from grouped g
     group by g.kind, g.source
    having count(*) >= 2
     order by count(*) desc, max(g.created_at) desc
     limit 20;
end
$$;

-- Rejects every pending booking of one source (kind 'address' or 'domain', as
-- staff_pending_sources names it) with staff's reason, in one action: each one as
-- staff_set_booking_status would (history, mail, notification); an unconfirmed one past its
-- deadline expires instead. Returns how many were rejected or expired.
create or replace function public.staff_reject_source(kind text, source text, reason text)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  why text := nullif(trim(coalesce(staff_reject_source.reason, '')), '');
  target record;
  done integer := 0;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  if staff_reject_source.kind not in ('address', 'domain') or staff_reject_source.source is null then
    perform internal.fail('invalid_payload', 'kind is address or domain, with a source');
  end if;
  if why is null then
    perform internal.fail('reason_required', 'a rejection needs a reason');
  end if;
  for target in
    select b.id
      from internal.booking_sources src
      join public.bookings b on b.id = src.booking_id
     where b.status = 'pending'
       and case staff_reject_source.kind
             when 'address' then src.client_key = staff_reject_source.source
             else src.domain = lower(staff_reject_source.source)
           end
     order by b.created_at
  loop
    if internal.expire_lapsed_bookings(only_booking => target.id) = 0 then
      perform public.staff_set_booking_status(target.id, 'rejected', why);
    end if;
    done := done + 1;
  end loop;
  return done;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
create trigger bookings_record_source
  after insert on public.bookings
  for each row
  execute function internal.record_booking_source();

-- ---------------------------------------------------------------------------------------------
-- Data
-- ---------------------------------------------------------------------------------------------
-- A flood ceiling now, not a budget a hall shares (docs/decisions.md, "Guest lookup").
alter table public.settings alter column lookup_failures_per_address set default 1000;
update public.settings set lookup_failures_per_address = 1000 where lookup_failures_per_address = 150;

-- The sources of the bookings already there (their address is unknown).
insert into internal.booking_sources (booking_id, client_key, mailbox, domain, created_at)
select b.id, null, internal.booking_mailbox(b.user_id, b.guest_email),
       internal.mail_domain(internal.booking_mailbox(b.user_id, b.guest_email)), b.created_at
  from public.bookings b
on conflict (booking_id) do nothing;

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
alter table internal.mail_providers enable row level security;
alter table internal.booking_sources enable row level security;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on table internal.mail_providers, internal.booking_sources from public;
-- The agency tunes its limits (the settings policy restricts updates to admins).
grant update (max_pending_per_domain, max_pending_private_per_address, max_fleet_share_per_address,
  max_unconfirmed_per_address_hour) on table public.settings to authenticated;

revoke all on function internal.normalize_phone(text) from public;
revoke all on function internal.mail_domain(text) from public;
revoke all on function internal.is_private_mail_domain(text) from public;
revoke all on function internal.days_within(timestamptz, timestamptz, integer) from public;
revoke all on function internal.fail_hold_limit(text, integer, text) from public;
revoke all on function internal.check_hold_limits(uuid, boolean, text, text, timestamptz, timestamptz)
  from public;
revoke all on function internal.check_creation_limits(uuid, text) from public;
revoke all on function internal.booking_mailbox(uuid, text) from public;
revoke all on function internal.record_booking_source() from public;
revoke all on function public.staff_pending_sources() from public, anon, authenticated;
revoke all on function public.staff_reject_source(text, text, text) from public, anon, authenticated;
grant execute on function public.staff_pending_sources() to authenticated, service_role;
grant execute on function public.staff_reject_source(text, text, text) to authenticated, service_role;
