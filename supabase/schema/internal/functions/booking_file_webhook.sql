-- function internal.booking_file_webhook(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.booking_file_webhook()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  delete from internal.upload_checks c where c.bucket_id = new.bucket_id and c.name = new.name;
  perform internal.invoke_edge_function('check-upload', jsonb_build_object(
    'type', tg_op,
    'schema', 'storage',
    'table', 'objects',
    'record', jsonb_build_object('id', new.id, 'bucket_id', new.bucket_id, 'name', new.name)
  ));
  return null;
end
$function$;

