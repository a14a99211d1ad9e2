-- function internal.payload_text(p jsonb, key text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.payload_text(p jsonb, key text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  if p -> key is null or jsonb_typeof(p -> key) = 'null' then
    return null;
  end if;
  if jsonb_typeof(p -> key) <> 'string' then
    perform internal.fail('invalid_payload', key || ' must be a string');
  end if;
  return p ->> key;
end
$function$;

