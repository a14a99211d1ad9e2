-- function internal.valid_handover_photos(photos jsonb, booking_id uuid, record_id uuid): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.valid_handover_photos(photos jsonb, booking_id uuid, record_id uuid)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select jsonb_typeof(photos) = 'array'
     and jsonb_array_length(photos) <= 8
     and not exists (
       select 1 from jsonb_array_elements(photos) p
        where jsonb_typeof(p) <> 'object'
           or not (p ->> 'angle' = any (internal.handover_angles()))
           or coalesce(p ->> 'path', '') !~ (
                '^' || booking_id::text || '/' || record_id::text || '-' || (p ->> 'angle')
                || '\.(jpg|jpeg|png|webp)$')
           or (select count(*) from jsonb_object_keys(p)) <> 2)
     and (select count(distinct p ->> 'angle') from jsonb_array_elements(photos) p)
         = jsonb_array_length(photos)
$function$;

grant execute on function internal.valid_handover_photos(photos jsonb, booking_id uuid, record_id uuid) to authenticated;
grant execute on function internal.valid_handover_photos(photos jsonb, booking_id uuid, record_id uuid) to service_role;
