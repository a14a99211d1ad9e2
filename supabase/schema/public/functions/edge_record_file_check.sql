-- function public.edge_record_file_check(bucket text, file_name text, verdict text, detected_type text, reason text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.edge_record_file_check(bucket text, file_name text, verdict text, detected_type text DEFAULT NULL::text, reason text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  refused jsonb := '[]'::jsonb;
  using_file record;
begin
  insert into internal.upload_checks as c (bucket_id, name, verdict, detected_type, reason)
  values (bucket, file_name, verdict, detected_type, reason)
  on conflict (bucket_id, name) do update
    set verdict = excluded.verdict, detected_type = excluded.detected_type,
        reason = excluded.reason, checked_at = now();
  if verdict = 'rejected' and bucket = 'cars' then
    update public.cars x
       set images = array_remove(x.images, internal.car_picture_path(file_name))
     where internal.car_picture_path(file_name) = any (x.images);
  elsif verdict = 'rejected' then
    for using_file in
      select b.id
        from public.bookings b
       where b.status = 'pending'
         and ((bucket = 'licenses' and b.license_path = file_name)
           or (bucket = 'flight-documents' and b.flight_document_path = file_name))
    loop
      perform internal.expire_lapsed_bookings(only_booking => using_file.id);
    end loop;
    with refused_bookings as (
      update public.bookings b
         set status = 'rejected',
             status_reason = case b.locale
               when 'en' then 'Document refused: the file sent is not a valid PDF, JPEG, PNG or WebP.'
               when 'ar' then 'رُفض المستند: الملف المرسل ليس ملف PDF أو JPEG أو PNG أو WebP صالحًا.'
               else 'Document refusé : le fichier envoyé n''est pas un PDF, JPEG, PNG ou WebP valide.'
             end
       where b.status = 'pending'
         and ((bucket = 'licenses' and b.license_path = file_name)
           or (bucket = 'flight-documents' and b.flight_document_path = file_name))
      returning b.id
    )
    select coalesce(jsonb_agg(r.id), '[]'::jsonb) into refused from refused_bookings r;
  end if;
  return jsonb_build_object('verdict', verdict, 'refused_bookings', refused);
end
$function$;

grant execute on function public.edge_record_file_check(bucket text, file_name text, verdict text, detected_type text, reason text) to service_role;
