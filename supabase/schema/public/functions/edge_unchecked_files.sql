-- function public.edge_unchecked_files(bucket text, file_name text, batch integer): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.edge_unchecked_files(bucket text DEFAULT NULL::text, file_name text DEFAULT NULL::text, batch integer DEFAULT 20)
 RETURNS SETOF jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select jsonb_build_object(
           'bucket_id', o.bucket_id,
           'name', o.name,
           'mimetype', o.metadata ->> 'mimetype',
           'allowed_mime_types', to_jsonb(b.allowed_mime_types))
    from storage.objects o
    join storage.buckets b on b.id = o.bucket_id
   where o.bucket_id in ('licenses', 'flight-documents', 'cars', 'handovers')
     and (edge_unchecked_files.bucket is null or o.bucket_id = edge_unchecked_files.bucket)
     and (edge_unchecked_files.file_name is null or o.name = edge_unchecked_files.file_name)
     and not exists (
       select 1 from internal.upload_checks c where c.bucket_id = o.bucket_id and c.name = o.name)
   order by o.created_at
   limit least(greatest(edge_unchecked_files.batch, 1), 100)
$function$;

grant execute on function public.edge_unchecked_files(bucket text, file_name text, batch integer) to service_role;
