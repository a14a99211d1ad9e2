-- function public.edge_stale_uploads(batch integer, after jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.edge_stale_uploads(batch integer DEFAULT 100, after jsonb DEFAULT NULL::jsonb)
 RETURNS SETOF jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  cutoff timestamptz := now() - internal.orphan_upload_age();
  after_created timestamptz := (edge_stale_uploads.after ->> 'created_at')::timestamptz;
  after_bucket text := edge_stale_uploads.after ->> 'bucket_id';
  after_name text := edge_stale_uploads.after ->> 'name';
begin
  if edge_stale_uploads.after is null then
    delete from internal.upload_checks c
     where c.checked_at < cutoff
       and not exists (
         select 1 from storage.objects o where o.bucket_id = c.bucket_id and o.name = c.name)
       and not internal.booking_names_file(c.bucket_id, c.name);
  elsif after_created is null or after_bucket is null or after_name is null then
    perform internal.fail('invalid_payload', 'after must be an item of the previous batch');
  end if;
  return query
    select jsonb_build_object('bucket_id', o.bucket_id, 'name', o.name, 'created_at', o.created_at)
      from storage.objects o
     where o.bucket_id in ('licenses', 'flight-documents')
       and o.created_at < cutoff
       and (after_created is null
         or (o.created_at, o.bucket_id, o.name) > (after_created, after_bucket, after_name))
       and not internal.booking_names_file(o.bucket_id, o.name)
     order by o.created_at, o.bucket_id, o.name
     limit least(greatest(coalesce(edge_stale_uploads.batch, 100), 1), 1000);
end
$function$;

grant execute on function public.edge_stale_uploads(batch integer, after jsonb) to service_role;
