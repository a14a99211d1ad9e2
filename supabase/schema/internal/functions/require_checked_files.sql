-- function internal.require_checked_files(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.require_checked_files()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  file record;
  found_verdict text;
begin
  for file in
    select f.bucket_id, f.name
      from (values ('licenses', new.license_path), ('flight-documents', new.flight_document_path))
           as f (bucket_id, name)
     where f.name is not null
  loop
    select c.verdict into found_verdict
      from internal.upload_checks c
     where c.bucket_id = file.bucket_id and c.name = file.name;
    if found_verdict = 'rejected' then
      perform internal.fail('file_rejected', file.bucket_id || '/' || file.name);
    elsif found_verdict is null and tg_op = 'UPDATE' then
      perform internal.fail('files_not_checked', file.bucket_id || '/' || file.name);
    end if;
  end loop;
  return new;
end
$function$;

