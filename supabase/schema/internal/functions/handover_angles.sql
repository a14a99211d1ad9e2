-- function internal.handover_angles(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.handover_angles()
 RETURNS text[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select array['front', 'back', 'left', 'right', 'front_left', 'front_right', 'rear_left', 'rear_right']
$function$;

grant execute on function internal.handover_angles() to authenticated;
grant execute on function internal.handover_angles() to service_role;
