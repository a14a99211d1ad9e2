-- function internal.check_price(value integer): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.check_price(value integer)
 RETURNS void
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  if value is null or value < 0 or value > internal.app_limit('price_dzd') then
    perform internal.fail('invalid_price',
      format('a whole number of DZD from 0 to %s', internal.app_limit('price_dzd')));
  end if;
end
$function$;

