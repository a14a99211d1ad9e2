-- A guest lookup an airport can use (docs/decisions.md, "Guest lookup"). find_guest_booking
-- allowed 5 lookups a minute per client address, so a hall of travellers behind one address
-- locked each other out. Now only failed lookups count: per reference (a few wrong contacts, then
-- that reference waits, whoever asks: guessing a contact is stopped even from many addresses) and
-- per client address, with a budget sized for a hall (guessing references, 40 bits, stays
-- hopeless). A lookup that finds its booking costs nothing.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
alter table public.settings
  -- Wrong contacts for one reference in 15 minutes, then that reference answers rate_limited.
  add column lookup_failures_per_reference smallint not null default 5,
  -- Failed lookups from one client address in 15 minutes, then the address answers rate_limited.
  add column lookup_failures_per_address smallint not null default 150;

-- One row per failed find_guest_booking call (no booking for that reference and contact), kept a
-- day (the periodic job forgets older ones).
create table internal.guest_lookup_failures (
  id bigint generated always as identity primary key,
  reference_key text not null,
  client_key text not null,
  failed_at timestamptz not null default now()
);

-- The per-minute attempts of the old find_guest_booking.
drop table internal.guest_lookup_attempts;

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table public.settings
  add constraint settings_lookup_failures_per_reference_range
    check (lookup_failures_per_reference between 3 and 20),
  add constraint settings_lookup_failures_per_address_range
    check (lookup_failures_per_address between 20 and 5000);

alter table internal.guest_lookup_failures
  add constraint guest_lookup_failures_reference_key_length check (char_length(reference_key) <= 64),
  add constraint guest_lookup_failures_client_key_length check (char_length(client_key) <= 64);

create index guest_lookup_failures_reference_idx
  on internal.guest_lookup_failures (reference_key, failed_at);
create index guest_lookup_failures_client_idx
  on internal.guest_lookup_failures (client_key, failed_at);
create index guest_lookup_failures_failed_at_idx on internal.guest_lookup_failures (failed_at);

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- A guest's booking for a reference (read the Crockford way) and the guest's email or phone;
-- null for a wrong reference and a wrong contact alike (answering rather than raising lets the
-- failure be counted). Raises rate_limited (detail {"limit", "retry_after", "scope"}) when the
-- reference had settings.lookup_failures_per_reference wrong contacts in the last 15 minutes
-- (scope "reference": from any address, even with the right contact, else the lock would tell
-- right from wrong), or the client address settings.lookup_failures_per_address failed lookups
-- (scope "address").
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
  window_start timestamptz := now() - interval '15 minutes';
  per_reference integer;
  per_address integer;
  n integer;
  oldest timestamptz;
  phone text;
  b public.bookings;
begin
  select coalesce(max(s.lookup_failures_per_reference), 5),
         coalesce(max(s.lookup_failures_per_address), 150)
    into per_reference, per_address
    from public.settings s where s.id = 1;

  -- Concurrent guesses count each other: the address, then the reference (always this order).
  perform pg_advisory_xact_lock(hashtextextended('guest_lookup:address:' || caller, 0));
  perform pg_advisory_xact_lock(hashtextextended('guest_lookup:reference:' || ref_key, 0));

  -- A malformed reference matches nothing: counted per address only (one key for all of them
  -- would let anyone lock everybody's typos).
  select count(*), min(f.failed_at) into n, oldest
    from internal.guest_lookup_failures f
   where ref is not null and f.reference_key = ref_key and f.failed_at > window_start;
  if n >= per_reference then
    perform internal.fail('rate_limited', json_build_object(
      'limit', per_reference, 'scope', 'reference',
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
      else
        phone := internal.normalize_phone(given, true);
        if phone is not null and phone = b.guest_phone then
          return internal.booking_json(b);
        end if;
      end if;
    end if;
  end if;

  insert into internal.guest_lookup_failures (reference_key, client_key)
  values (left(ref_key, 64), left(caller, 64));
  return null;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
alter table internal.guest_lookup_failures enable row level security;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on table internal.guest_lookup_failures from public;
-- The agency may tune them like the other limits (the settings policy restricts updates to admins).
grant update (lookup_failures_per_reference, lookup_failures_per_address)
  on table public.settings to authenticated;
