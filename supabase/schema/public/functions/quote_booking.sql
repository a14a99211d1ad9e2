-- function public.quote_booking(p jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.quote_booking(p jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if p is null or jsonb_typeof(p) <> 'object' then
    perform internal.fail('invalid_payload', 'the payload must be a JSON object');
  end if;
  return internal.price_booking(
    internal.payload_uuid(p, 'car_id'),
    internal.payload_instant(p, 'start_at'),
    internal.payload_instant(p, 'end_at'),
    internal.payload_uuid(p, 'pickup_location_id'),
    internal.payload_uuid(p, 'dropoff_location_id'),
    coalesce(internal.payload_text(p, 'driver_option'), 'self'),
    internal.payload_codes(p, 'extras'),
    internal.payload_codes(p, 'insurance')
  );
end
$function$;

grant execute on function public.quote_booking(p jsonb) to anon;
grant execute on function public.quote_booking(p jsonb) to authenticated;
grant execute on function public.quote_booking(p jsonb) to service_role;
