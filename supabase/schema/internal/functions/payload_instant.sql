-- function internal.payload_instant(p jsonb, key text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.payload_instant(p jsonb, key text)
 RETURNS timestamp with time zone
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v jsonb := p -> key;
  s text;
  parsed timestamptz;
begin
  if v is null or jsonb_typeof(v) = 'null' then
    return null;
  end if;
  s := case when jsonb_typeof(v) = 'string' then p ->> key end;
  if s is null
     or s !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?(Z|z|[+-][0-9]{2}(:?[0-9]{2})?)$' then
    perform internal.fail('invalid_dates', key || ' must be an ISO 8601 date-time with an offset');
  end if;
  begin
    parsed := s::timestamptz;
  exception when others then
    perform internal.fail('invalid_dates', key || ' is not a real date-time');
  end;
  return parsed;
end
$function$;

