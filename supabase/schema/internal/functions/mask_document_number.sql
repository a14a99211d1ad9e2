-- function internal.mask_document_number(value text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.mask_document_number(value text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select case when value is null then null
              else repeat('•', greatest(char_length(value) - 3, 3)) || right(value, 3) end
$function$;

grant execute on function internal.mask_document_number(value text) to authenticated;
grant execute on function internal.mask_document_number(value text) to service_role;
