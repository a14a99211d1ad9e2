-- function internal.payload_codes(p jsonb, key text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.payload_codes(p jsonb, key text)
 RETURNS text[]
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v jsonb := p -> key;
begin
  if v is null or jsonb_typeof(v) = 'null' then
    return '{}'::text[];
  end if;
  -- The usual lists, none or one code, without a query.
  if jsonb_typeof(v) = 'array' and jsonb_array_length(v) = 0 then
    return '{}'::text[];
  end if;
  if jsonb_typeof(v) = 'array' and jsonb_array_length(v) = 1 and jsonb_typeof(v -> 0) = 'string' then
    return array[v ->> 0];
  end if;
  if jsonb_typeof(v) <> 'array'
     or exists (select 1 from jsonb_array_elements(v) e where jsonb_typeof(e) <> 'string') then
    perform internal.fail('invalid_payload', key || ' must be an array of strings');
  end if;
  if jsonb_array_length(v) > 20 then
    perform internal.fail('invalid_payload', key || ' has too many items');
  end if;
  return coalesce(
    (select array_agg(code order by first_seen)
       from (select e.code, min(e.n) as first_seen
               from jsonb_array_elements_text(v) with ordinality as e(code, n)
              group by e.code) d),
    '{}'::text[]
  );
end
$function$;

