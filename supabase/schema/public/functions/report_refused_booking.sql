-- function public.report_refused_booking(p jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.report_refused_booking(p jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  uid uuid := auth.uid();
  is_service boolean := coalesce(auth.role(), '') = 'service_role';
  new_id uuid;
  request_hash text;
  stored public.bookings;
  refusal public.booking_refusals;
  d internal.booking_draft;
  caller_key text;
  refused_code text;
  refused_detail text;
  to_email text;
  m record;
  was_notified boolean := false;
begin
  new_id := internal.booking_payload_id(p);
  request_hash := internal.booking_request_hash(p, uid);

  select b.* into stored from public.bookings b where b.id = new_id;
  if found then
    return jsonb_build_object('status', 'created',
      'booking', internal.replay_booking(stored, request_hash));
  end if;

  -- One report per id at a time: concurrent replays wait and then read the recorded answer.
  perform pg_advisory_xact_lock(hashtextextended('booking_refusal:' || new_id::text, 0));
  select r.* into refusal from public.booking_refusals r where r.id = new_id;
  if found then
    return internal.replay_refusal(refusal, request_hash);
  end if;

  d := internal.booking_draft(p, uid);
  if not is_service then
    caller_key := internal.client_address_key();
    perform internal.check_creation_limits(uid, caller_key);
  end if;

  -- create_booking itself decides, in a subtransaction that is always undone.
  begin
    perform public.create_booking(p);
    raise exception using errcode = 'KR001', message = 'booking_would_be_created';
  exception
    when sqlstate 'KR001' then
      refused_code := null;
    when sqlstate 'P0001' then
      get stacked diagnostics refused_code = message_text, refused_detail = pg_exception_detail;
  end;
  if refused_code is null then
    perform internal.fail('booking_not_refused',
      'create_booking accepts this booking now: send it again');
  end if;
  if not internal.is_final_refusal(refused_code) then
    raise exception using errcode = 'P0001', message = refused_code,
      detail = coalesce(refused_detail, '');
  end if;

  insert into public.booking_refusals (id, reference, user_id, car_id, start_at, end_at, code,
    locale, guest_email, guest_phone, client_key, request_hash)
  values (new_id, d.reference, uid, d.car_id, d.start_at, d.end_at, refused_code, d.locale,
    d.guest_email, d.guest_phone, caller_key, request_hash)
  returning * into refusal;

  if uid is null then
    to_email := d.guest_email;
  else
    select u.email into to_email from auth.users u where u.id = uid;
    insert into public.notifications (user_id, booking_id, type, reference, reason_code)
    values (uid, null, 'booking_refused', d.reference, refused_code);
  end if;
  if to_email is not null then
    select x.subject, x.body_text into m from internal.refusal_mail(d, refused_code) x;
    was_notified := internal.enqueue_mail(to_email, m.subject, m.body_text, new_id, 'booking_refused',
      d.locale, true);
  end if;
  update public.booking_refusals r set notified = was_notified
   where r.id = new_id
  returning * into refusal;
  return internal.replay_refusal(refusal, request_hash);
end
$function$;

grant execute on function public.report_refused_booking(p jsonb) to anon;
grant execute on function public.report_refused_booking(p jsonb) to authenticated;
grant execute on function public.report_refused_booking(p jsonb) to service_role;
