-- Hosted Supabase hands PostgREST the client's address in `cf-connecting-ip` and
-- `x-forwarded-for` (internal.client_address, 20261125200000_client_address.sql). Two things
-- follow, for the day a hosted project hands none (docs/decisions.md, "Client address"):
-- - public.request_client_address() answers the address the database computes for the caller,
--   so the contract suite can compare it with the address the test machine really has (Cloudflare
--   sees it: https://<ref>.supabase.co/cdn-cgi/trace) and show that headers the client forges
--   change nothing (tests/contract);
-- - the guest lookup falls back without an address: every caller is then one "unknown" caller,
--   whose per-address limits would let five wrong contacts from anyone lock a reference for its
--   guest and a few hundred mistyping travellers lock every guest out. With no address only the
--   limits that need none apply: per reference all callers together (6 × per reference), per
--   contact, and a flood ceiling ten times one address's.

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- The caller's own address as the limits read it: {"address", "key"} (null, null when there is
-- none). Tells callers only what they sent or the platform saw.
create or replace function public.request_client_address()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return jsonb_build_object(
    'address', host(internal.client_address()),
    'key', internal.client_address_key());
end
$$;

-- find_guest_booking as in 20261126100100_fleet_holds.sql, but for a caller without an address.
create or replace function public.find_guest_booking(reference text, contact text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  known text := internal.client_address_key();
  caller text := coalesce(known, 'unknown');
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
    -- Without an address every caller is one: only the all-callers ceiling applies, so five
    -- wrong contacts from anyone cannot lock a reference for its guest.
    if (known is not null and n >= per_reference) or total >= 6 * per_reference then
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
  -- Without an address, the callers together are a whole country's guests, not one hall: a flood
  -- is held at ten times one address's ceiling (10,000 failures in 15 minutes by default).
  if known is null then
    per_address := 10 * per_address;
  end if;
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

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function public.request_client_address() from public;
grant execute on function public.request_client_address() to anon, authenticated;
-- find_guest_booking keeps its grants (create or replace leaves them as they are).
