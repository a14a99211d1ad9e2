-- function public.confirm_guest_booking(reference text, code text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.confirm_guest_booking(reference text, code text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  caller text := coalesce(internal.client_address_key(), 'unknown');
  ref text := internal.normalize_reference(confirm_guest_booking.reference);
  given text := regexp_replace(coalesce(confirm_guest_booking.code, ''), '[\s-]', '', 'g');
  b public.bookings;
  c internal.guest_confirmations;
  src internal.booking_sources;
  n integer;
  total integer;
  oldest timestamptz;
  refused_code text;
  refused_detail text;
begin
  perform internal.require_writable();
  perform pg_advisory_xact_lock(hashtextextended('confirm_guest_booking:' || caller, 0));
  select count(*), min(f.failed_at) into n, oldest
    from internal.confirmation_failures f
   where f.client_key = caller and f.failed_at > now() - interval '1 hour';
  if n >= 300 then
    perform internal.fail('rate_limited', json_build_object('limit', 300, 'scope', 'address',
      'retry_after', oldest + interval '1 hour')::text);
  end if;

  if ref is not null then
    select x.* into b from public.bookings x
     where x.reference = ref and x.user_id is null
       for update;
  end if;
  if b.id is not null then
    select x.* into c from internal.guest_confirmations x where x.booking_id = b.id for update;
  end if;
  if b.id is null or c.booking_id is null or given !~ '^[0-9]{8}$' then
    insert into internal.confirmation_failures (client_key, booking_id) values (caller, b.id);
    return jsonb_build_object('confirmed', false, 'reason', 'invalid_confirmation_code');
  end if;

  if b.contact_confirmed_at is null then
    if internal.expire_lapsed_bookings(only_booking => b.id) > 0 or b.status = 'expired' then
      select x.* into b from public.bookings x where x.id = b.id;
      if b.status_reason = 'car_unavailable' then
        return jsonb_build_object('confirmed', false, 'reason', 'car_unavailable',
          'booking', internal.booking_public_json(b));
      end if;
      return jsonb_build_object('confirmed', false, 'reason', 'booking_expired');
    end if;
    if b.status <> 'pending' then
      return jsonb_build_object('confirmed', false, 'reason', 'invalid_status_transition');
    end if;
    select count(*) filter (where f.client_key = caller and f.failed_at >= c.last_sent_at),
           count(*) filter (where f.failed_at >= c.last_sent_at)
      into n, total
      from internal.confirmation_failures f
     where f.booking_id = b.id;
    if n >= 5 or total >= 30 then
      return jsonb_build_object('confirmed', false, 'reason', 'confirmation_attempts_exceeded');
    end if;
  end if;

  if internal.confirmation_code_hash(b.id, given) <> c.code_hash
     and internal.confirmation_code_hash(b.id, given) is distinct from c.previous_code_hash then
    insert into internal.confirmation_failures (client_key, booking_id) values (caller, b.id);
    return jsonb_build_object('confirmed', false, 'reason', 'invalid_confirmation_code');
  end if;

  if b.contact_confirmed_at is null then
    select x.* into src from internal.booking_sources x where x.booking_id = b.id;
    begin
      perform internal.check_hold_limits(b.id, true,
        coalesce(src.mailbox, internal.email_key(b.guest_email)), src.client_key,
        b.start_at, b.end_at);
    exception when sqlstate 'P0001' then
      get stacked diagnostics refused_code = message_text, refused_detail = pg_exception_detail;
      return jsonb_build_object('confirmed', false, 'reason', refused_code,
        'detail', refused_detail::jsonb);
    end;
    begin
      update public.bookings x set contact_confirmed_at = now() where x.id = b.id returning x.* into b;
    exception when exclusion_violation then
      update public.bookings x
         set status = 'expired', status_reason = 'car_unavailable'
       where x.id = b.id
      returning x.* into b;
      return jsonb_build_object('confirmed', false, 'reason', 'car_unavailable',
        'booking', internal.booking_public_json(b));
    end;
    update internal.guest_confirmations x set confirmed_at = now() where x.booking_id = b.id;
    perform internal.enqueue_guest_mail(b, 'booking_received');
  end if;
  return jsonb_build_object('confirmed', true, 'booking', internal.booking_public_json(b));
end
$function$;

grant execute on function public.confirm_guest_booking(reference text, code text) to anon;
grant execute on function public.confirm_guest_booking(reference text, code text) to authenticated;
grant execute on function public.confirm_guest_booking(reference text, code text) to service_role;
