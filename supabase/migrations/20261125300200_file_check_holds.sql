-- check-upload's verdict meets the guest confirmation rules (20261125200100_booking_holds):
-- - an unconfirmed guest hold past its deadline may only become `expired`, so a refused file
--   expires it (as the minute's job would) instead of refusing it; refusing it would fail, and
--   the verdict would never be recorded;
-- - the refusal's reason is written in the booking's language, as its mails are.

create or replace function public.edge_record_file_check(
  bucket text,
  file_name text,
  verdict text,
  detected_type text default null,
  reason text default null
)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  refused jsonb := '[]'::jsonb;
  lapsed record;
begin
  insert into internal.upload_checks as c (bucket_id, name, verdict, detected_type, reason)
  values (bucket, file_name, verdict, detected_type, reason)
  on conflict (bucket_id, name) do update
    set verdict = excluded.verdict, detected_type = excluded.detected_type,
        reason = excluded.reason, checked_at = now();
  if verdict = 'rejected' then
    for lapsed in
      select b.id
        from public.bookings b
       where b.status = 'pending'
         and not internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at)
         and ((bucket = 'licenses' and b.license_path = file_name)
           or (bucket = 'flight-documents' and b.flight_document_path = file_name))
    loop
      perform internal.expire_lapsed_bookings(only_booking => lapsed.id);
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
         and internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at)
         and ((bucket = 'licenses' and b.license_path = file_name)
           or (bucket = 'flight-documents' and b.flight_document_path = file_name))
      returning b.id
    )
    select coalesce(jsonb_agg(r.id), '[]'::jsonb) into refused from refused_bookings r;
  end if;
  return jsonb_build_object('verdict', verdict, 'refused_bookings', refused);
end
$$;

revoke all on function public.edge_record_file_check(text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.edge_record_file_check(text, text, text, text, text) to service_role;
