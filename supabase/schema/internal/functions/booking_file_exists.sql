-- function internal.booking_file_exists(bucket text, booking_id uuid, path text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.booking_file_exists(bucket text, booking_id uuid, path text)
 RETURNS boolean
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  folder text := booking_id::text || '/';
begin
  if path is null or not starts_with(path, folder) or char_length(path) = char_length(folder)
     or strpos(substr(path, char_length(folder) + 1), '/') > 0 then
    return false;
  end if;
  perform 1 from storage.objects o
   where o.bucket_id = bucket and o.name = path
     for key share;
  return found;
end
$function$;

