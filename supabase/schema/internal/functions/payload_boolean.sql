-- function internal.payload_boolean(p jsonb, key text, fallback boolean): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.payload_boolean(p jsonb, key text, fallback boolean)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  if p -> key is null or jsonb_typeof(p -> key) = 'null' then
    return fallback;
  end if;
  if jsonb_typeof(p -> key) <> 'boolean' then
    perform internal.fail('invalid_payload', key || ' must be a boolean');
  end if;
  return (p -> key)::boolean;
end
$function$;

