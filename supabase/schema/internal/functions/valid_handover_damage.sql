-- function internal.valid_handover_damage(damage jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.valid_handover_damage(damage jsonb)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select jsonb_typeof(damage) = 'array'
     and jsonb_array_length(damage) <= internal.app_limit('damage_marks')
     and not exists (
       select 1 from jsonb_array_elements(damage) d
        where jsonb_typeof(d) <> 'object'
           or case when jsonb_typeof(d -> 'x') = 'number' and jsonb_typeof(d -> 'y') = 'number'
                   then (d ->> 'x')::numeric not between 0 and 100
                     or (d ->> 'y')::numeric not between 0 and 100
                   else true end
           or (jsonb_typeof(d -> 'zone') is distinct from 'null'
               and not (d ->> 'zone' = any (internal.handover_zones())))
           or jsonb_typeof(d -> 'note') is distinct from 'string'
           or char_length(d ->> 'note') > internal.app_limit('damage_note')
           or internal.has_hidden_characters(d ->> 'note')
           or exists (select 1 from jsonb_object_keys(d) k where k not in ('x', 'y', 'zone', 'note')))
$function$;

grant execute on function internal.valid_handover_damage(damage jsonb) to authenticated;
grant execute on function internal.valid_handover_damage(damage jsonb) to service_role;
