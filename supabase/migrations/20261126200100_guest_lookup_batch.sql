-- The guest bookings stored on a device refresh their status in one call (docs/decisions.md,
-- "Guest bookings stay current"): the app opens, comes online or is woken by the browser, and
-- asks for all of them at once instead of one lookup per booking. Each item is
-- public.find_guest_booking itself, so each is counted by the lookup's own limits (a wrong
-- contact is a failed lookup; a lookup that finds its booking costs nothing).

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- `items`: a JSON array of at most 10 `{"reference", "contact"}`. Answers an array in the same
-- order: `{"reference", "booking"}` (the booking, or null when the lookup finds none) or
-- `{"reference", "error": <code>, "detail"}` for an item the lookup refused (`rate_limited`, or
-- any stable code it raises); the other items are still answered. Anything but such an array
-- raises invalid_payload.
create or replace function public.find_guest_bookings(items jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  max_items constant integer := 10;
  item jsonb;
  found jsonb;
  results jsonb := '[]'::jsonb;
  failure_detail text;
begin
  if jsonb_typeof(items) is distinct from 'array' or jsonb_array_length(items) > max_items then
    perform internal.fail('invalid_payload',
      json_build_object('max_items', max_items)::text);
  end if;
  for item in select e.value from jsonb_array_elements(items) e loop
    if jsonb_typeof(item) <> 'object'
       or jsonb_typeof(item -> 'reference') is distinct from 'string'
       or jsonb_typeof(item -> 'contact') is distinct from 'string' then
      perform internal.fail('invalid_payload', 'each item: {"reference", "contact"} (strings)');
    end if;
    begin
      found := public.find_guest_booking(item ->> 'reference', item ->> 'contact');
      results := results || jsonb_build_array(
        jsonb_build_object('reference', item ->> 'reference', 'booking', found));
    exception when sqlstate 'P0001' then
      -- The lookup refused this item (its limits: rate_limited, or any code it raises): that
      -- item is answered with the code, the others still are.
      get stacked diagnostics failure_detail = pg_exception_detail;
      results := results || jsonb_build_array(jsonb_build_object(
        'reference', item ->> 'reference',
        'error', sqlerrm,
        'detail', case when failure_detail ~ '^\{' then failure_detail::jsonb end));
    end;
  end loop;
  return results;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function public.find_guest_bookings(jsonb) from public;
grant execute on function public.find_guest_bookings(jsonb) to anon, authenticated;
