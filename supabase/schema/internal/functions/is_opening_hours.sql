-- function internal.is_opening_hours(hours jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.is_opening_hours(hours jsonb)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select coalesce(
    jsonb_typeof(hours) = 'array'
    and jsonb_array_length(hours) = 7
    and (
      select bool_and(
        jsonb_typeof(e) = 'null'
        or (
          jsonb_typeof(e) = 'array'
          and jsonb_array_length(e) = 2
          and jsonb_typeof(e -> 0) = 'number'
          and jsonb_typeof(e -> 1) = 'number'
          and (e ->> 0) ~ '^\d+$'
          and (e ->> 1) ~ '^\d+$'
          and (e ->> 0)::numeric < (e ->> 1)::numeric
          and (e ->> 1)::numeric <= 1440
        )
      )
      from jsonb_array_elements(case when jsonb_typeof(hours) = 'array' then hours end) e
    ),
    false)
$function$;

grant execute on function internal.is_opening_hours(hours jsonb) to anon;
grant execute on function internal.is_opening_hours(hours jsonb) to authenticated;
grant execute on function internal.is_opening_hours(hours jsonb) to service_role;
