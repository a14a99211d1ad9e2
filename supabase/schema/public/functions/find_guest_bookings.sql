-- function public.find_guest_bookings(items jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.find_guest_bookings(items jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;

grant execute on function public.find_guest_bookings(items jsonb) to anon;
grant execute on function public.find_guest_bookings(items jsonb) to authenticated;
grant execute on function public.find_guest_bookings(items jsonb) to service_role;
