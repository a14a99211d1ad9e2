-- function internal.handover_zones(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.handover_zones()
 RETURNS text[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select array['front', 'back', 'left', 'right', 'roof', 'front_left', 'front_right',
               'rear_left', 'rear_right', 'interior']
$function$;

grant execute on function internal.handover_zones() to authenticated;
grant execute on function internal.handover_zones() to service_role;
