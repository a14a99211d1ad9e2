-- function internal.json_whole_number(v jsonb, lo numeric, hi numeric): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.json_whole_number(v jsonb, lo numeric, hi numeric)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select case
    when jsonb_typeof(v) is distinct from 'number' then null
    when (v #>> '{}')::numeric <> trunc((v #>> '{}')::numeric) then null
    when (v #>> '{}')::numeric not between lo and hi then null
    else (v #>> '{}')::integer
  end
$function$;

grant execute on function internal.json_whole_number(v jsonb, lo numeric, hi numeric) to authenticated;
grant execute on function internal.json_whole_number(v jsonb, lo numeric, hi numeric) to service_role;
