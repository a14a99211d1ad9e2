-- The client's address, read the one way every limit by address uses (docs/decisions.md, "Client
-- address"). On hosted Supabase a request passes Cloudflare, which sets `cf-connecting-ip` to the
-- address that connected and overwrites one the client sent; the proxies behind it append to a
-- client-sent `X-Forwarded-For`, so only its rightmost entry was written by the platform. The
-- local gateway (supabase/local/gateway.ts) forwards both headers the same way.

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- `value` as an address when it is one (IPv4 or IPv6, no port, no brackets), else null. Never
-- raises: headers are whatever the client sent.
create or replace function internal.parse_address(value text)
returns inet
language plpgsql
immutable
set search_path = ''
as $$
declare
  v text := trim(coalesce(value, ''));
begin
  if v !~ '^[0-9]{1,3}(\.[0-9]{1,3}){3}$' and v !~* '^[0-9a-f:.]*:[0-9a-f:.]*$' then
    return null;
  end if;
  if char_length(v) > 45 then
    return null;
  end if;
  begin
    return host(v::inet)::inet;
  exception when others then
    return null;
  end;
end
$$;

-- The address of the client that called the API: `cf-connecting-ip`, else the rightmost entry of
-- `x-forwarded-for` (PostgREST's `request.headers`); null when neither holds an address (a direct
-- SQL session, a malformed header).
create or replace function internal.client_address()
returns inet
language plpgsql
stable
set search_path = ''
as $$
declare
  headers jsonb;
  forwarded text[];
  found_address inet;
begin
  begin
    headers := nullif(current_setting('request.headers', true), '')::jsonb;
  exception when others then
    return null;
  end;
  if headers is null or jsonb_typeof(headers) <> 'object' then
    return null;
  end if;
  if jsonb_typeof(headers -> 'cf-connecting-ip') = 'string' then
    found_address := internal.parse_address(headers ->> 'cf-connecting-ip');
    if found_address is not null then
      return found_address;
    end if;
  end if;
  if jsonb_typeof(headers -> 'x-forwarded-for') = 'string' then
    forwarded := string_to_array(headers ->> 'x-forwarded-for', ',');
    return internal.parse_address(forwarded[cardinality(forwarded)]);
  end if;
  return null;
end
$$;

-- The key limits count by: an IPv4 address as it is (an IPv4-mapped IPv6 address as its IPv4),
-- an IPv6 address by its /64 network (what one subscriber gets, so a client cannot take a fresh
-- address per request from its own prefix); null when the address is unknown.
create or replace function internal.client_address_key()
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  a inet := internal.client_address();
begin
  if a is null then
    return null;
  end if;
  if family(a) = 6 and host(a) ~* '^::ffff:[0-9]{1,3}(\.[0-9]{1,3}){3}$' then
    return substr(host(a), 8);
  end if;
  if family(a) = 6 then
    return network(set_masklen(a, 64))::text;
  end if;
  return host(a);
end
$$;

-- find_guest_booking, unchanged but for the caller's address: five lookups a minute per client
-- address (internal.client_address_key), 'unknown' when there is none.
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
  given text := trim(coalesce(find_guest_booking.contact, ''));
  phone text;
  b public.bookings;
begin
  perform pg_advisory_xact_lock(hashtextextended('find_guest_booking:' || caller, 0));
  delete from internal.guest_lookup_attempts a where a.attempted_at < now() - interval '1 minute';
  if (select count(*) from internal.guest_lookup_attempts a where a.ip = caller) >= 5 then
    perform internal.fail('rate_limited', 'at most 5 lookups per minute');
  end if;
  insert into internal.guest_lookup_attempts (ip) values (caller);

  if ref is null or given = '' then
    return null;
  end if;
  select x.* into b from public.bookings x where x.reference = ref and x.user_id is null;
  if not found then
    return null;
  end if;
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
  return null;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function internal.parse_address(text) from public;
revoke all on function internal.client_address() from public;
revoke all on function internal.client_address_key() from public;
