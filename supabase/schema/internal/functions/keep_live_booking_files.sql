-- function internal.keep_live_booking_files(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.keep_live_booking_files()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if internal.booking_names_file(old.bucket_id, old.name, live_only => true)
     and not exists (
       select 1 from internal.upload_checks c
        where c.bucket_id = old.bucket_id and c.name = old.name and c.verdict = 'rejected') then
    raise warning 'kept %/%: a live booking names it', old.bucket_id, old.name;
    return null;
  end if;
  return old;
end
$function$;

