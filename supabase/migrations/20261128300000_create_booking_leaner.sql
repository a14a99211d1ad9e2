-- create_booking with fewer statements, same answers (docs/database.md, "Bookings at scale"):
-- - the confirmation code's row is written once, with whether its mail left, instead of written
--   and then updated by internal.enqueue_guest_mail (a second row version per guest booking);
--   resend_guest_confirmation sets mail_sent itself, so the mail helper no longer writes it;
-- - internal.payload_codes answers the usual lists (no code, one code) without a query;
-- - internal.booking_draft and internal.price_booking skip the de-duplicating queries when the
--   insurance is civil liability alone, the extras' queries when there are none, and the drop-off
--   place's query when it is the pick-up place; booking_draft normalizes the phone once.

CREATE OR REPLACE FUNCTION internal.enqueue_guest_mail(b public.bookings, kind text, code text DEFAULT NULL::text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  m record;
begin
  if b.user_id is not null or b.guest_email is null then
    return false;
  end if;
  if kind = 'guest_confirmation' then
    select x.subject, x.body_text into m from internal.guest_confirmation_mail(b, code) x;
  else
    select x.subject, x.body_text into m from internal.guest_mail(b, kind) x;
  end if;
  if m.subject is null then
    return false;
  end if;
  return internal.enqueue_mail(b.guest_email, m.subject, m.body_text, b.id, kind, b.locale,
    kind in ('guest_confirmation', 'booking_expired'));
end
$function$;

CREATE OR REPLACE FUNCTION public.resend_guest_confirmation(booking_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  b public.bookings;
  c internal.guest_confirmations;
  new_code text;
  left_after integer;
begin
  select x.* into b from public.bookings x
   where x.id = resend_guest_confirmation.booking_id and x.user_id is null
     for update;
  if not found then
    perform internal.fail('not_found', coalesce(resend_guest_confirmation.booking_id::text, 'booking_id'));
  end if;
  if b.contact_confirmed_at is not null then
    return jsonb_build_object('sent', false, 'reason', 'already_confirmed');
  end if;
  if internal.expire_lapsed_bookings(only_booking => b.id) > 0 or b.status = 'expired' then
    return jsonb_build_object('sent', false, 'reason', 'booking_expired');
  end if;
  if b.status <> 'pending' then
    return jsonb_build_object('sent', false, 'reason', 'invalid_status_transition');
  end if;
  select x.* into c from internal.guest_confirmations x where x.booking_id = b.id for update;
  if not found then
    perform internal.fail('not_found', b.id::text);
  end if;
  if c.sends >= 4 then
    return jsonb_build_object('sent', false, 'reason', 'resend_limited', 'resends_left', 0,
      'retry_after', null);
  end if;
  if c.mail_sent and c.last_sent_at > now() - interval '1 minute' then
    return jsonb_build_object('sent', false, 'reason', 'resend_limited',
      'resends_left', 4 - c.sends, 'retry_after', c.last_sent_at + interval '1 minute');
  end if;

  new_code := internal.new_confirmation_code();
  if not internal.enqueue_guest_mail(b, 'guest_confirmation', new_code) then
    -- The codes already sent stay valid, and so does what the booking says of them.
    return jsonb_build_object('sent', false, 'reason', 'mail_rate_limited');
  end if;
  update internal.guest_confirmations x
     set previous_code_hash = case when c.mail_sent then x.code_hash else x.previous_code_hash end,
         code_hash = internal.confirmation_code_hash(b.id, new_code),
         sends = x.sends + 1,
         last_sent_at = now(),
         mail_sent = true
   where x.booking_id = b.id
  returning 4 - x.sends into left_after;
  return jsonb_build_object('sent', true, 'confirm_by', b.confirm_by, 'resends_left', left_after);
end
$function$;

CREATE OR REPLACE FUNCTION public.create_booking(p jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  uid uuid := auth.uid();
  is_service boolean := coalesce(auth.role(), '') = 'service_role';
  d internal.booking_draft;
  new_id uuid;
  request_hash text;
  stored public.bookings;
  caller_key text;
  mailbox text;
  code text;
  price jsonb;
  failed_constraint text;
begin
  new_id := internal.booking_payload_id(p);

  select b.* into stored from public.bookings b where b.id = new_id;
  if found then
    return internal.replay_booking(stored, internal.booking_request_hash(p, uid));
  end if;

  d := internal.booking_draft(p, uid);
  request_hash := internal.booking_draft_hash(d, uid);
  price := internal.check_booking_world(d);
  mailbox := internal.booking_mailbox(uid, d.guest_email);

  -- The limits (the service role, staff tooling, has none).
  if not is_service then
    caller_key := internal.client_address_key();
    perform internal.check_creation_limits(uid, caller_key);
    perform internal.check_hold_limits(null, uid is null, mailbox, caller_key, d.start_at, d.end_at);
    -- The same id may have been stored by a concurrent call of this caller while it waited.
    select b.* into stored from public.bookings b where b.id = new_id;
    if found then
      return internal.replay_booking(stored, request_hash);
    end if;
  end if;

  select b.* into stored from public.bookings b where b.reference = d.reference;
  if found then
    if stored.id = new_id then
      return internal.replay_booking(stored, request_hash);
    end if;
    perform internal.fail('reference_taken', d.reference);
  end if;

  -- A guest booking holds nothing until confirmed, so the constraint does not see it: a car held
  -- by a proven booking is refused now, as it is for a customer.
  if uid is null and exists (
    select from public.bookings b
     where b.car_id = d.car_id
       and b.period && tstzrange(d.start_at, d.end_at, '[)')
       -- internal.booking_holds_car(), spelled as bookings_no_overlap's predicate (its index).
       and (b.status in ('reserved', 'in_progress')
            or (b.status = 'pending' and (b.confirm_by is null or b.contact_confirmed_at is not null)))
  ) then
    perform internal.fail('car_unavailable', d.car_id::text);
  end if;

  begin
    insert into public.bookings (
      id, reference, user_id, guest_name, guest_phone, guest_email, car_id, start_at, end_at,
      pickup_location_id, dropoff_location_id, driver_option, license_path, flight_document_path,
      from_abroad, additional_requests, extras, insurance, payment_method, payment_status, price,
      total_dzd, status, locale, confirm_by
    ) values (
      new_id, d.reference, uid, d.guest_name, d.guest_phone, d.guest_email, d.car_id, d.start_at,
      d.end_at, d.pickup_location_id, d.dropoff_location_id, d.driver_option, d.license_path,
      d.flight_document_path, d.from_abroad, d.additional_requests, d.extras, d.insurance, 'cash',
      'unpaid', price, (price ->> 'total')::integer, 'pending', d.locale,
      case when uid is null
        then now() + make_interval(mins => coalesce(
          (select s.guest_hold_minutes from public.settings s where s.id = 1), 45)) end
    )
    on conflict (id) do nothing
    returning * into stored;
  exception
    when exclusion_violation or unique_violation then
      -- A concurrent call with the same id may have committed it while this insert waited on
      -- that row: then it is the same booking, not a conflict.
      get stacked diagnostics failed_constraint = constraint_name;
      select b.* into stored from public.bookings b where b.id = new_id;
      if found then
        return internal.replay_booking(stored, request_hash);
      end if;
      if failed_constraint = 'bookings_no_overlap' then
        perform internal.fail('car_unavailable', d.car_id::text);
      elsif failed_constraint = 'bookings_reference_key' then
        perform internal.fail('reference_taken', d.reference);
      end if;
      raise;
  end;

  if stored.id is null then
    -- The same id arrived twice at once and the other call stored it first.
    select b.* into stored from public.bookings b where b.id = new_id;
    return internal.replay_booking(stored, request_hash);
  end if;

  insert into internal.booking_requests (booking_id, request_hash) values (stored.id, request_hash);
  if uid is null then
    code := internal.new_confirmation_code();
    -- The code's row says whether its mail left (a refused address, the mailbox's limit).
    insert into internal.guest_confirmations (booking_id, code_hash, mail_sent)
    values (stored.id, internal.confirmation_code_hash(stored.id, code),
      internal.enqueue_guest_mail(stored, 'guest_confirmation', code));
  end if;
  return internal.booking_public_json(stored);
end
$function$;

CREATE OR REPLACE FUNCTION internal.payload_codes(p jsonb, key text)
 RETURNS text[]
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v jsonb := p -> key;
begin
  if v is null or jsonb_typeof(v) = 'null' then
    return '{}'::text[];
  end if;
  -- The usual lists, none or one code, without a query.
  if jsonb_typeof(v) = 'array' and jsonb_array_length(v) = 0 then
    return '{}'::text[];
  end if;
  if jsonb_typeof(v) = 'array' and jsonb_array_length(v) = 1 and jsonb_typeof(v -> 0) = 'string' then
    return array[v ->> 0];
  end if;
  if jsonb_typeof(v) <> 'array'
     or exists (select 1 from jsonb_array_elements(v) e where jsonb_typeof(e) <> 'string') then
    perform internal.fail('invalid_payload', key || ' must be an array of strings');
  end if;
  if jsonb_array_length(v) > 20 then
    perform internal.fail('invalid_payload', key || ' has too many items');
  end if;
  return coalesce(
    (select array_agg(code order by first_seen)
       from (select e.code, min(e.n) as first_seen
               from jsonb_array_elements_text(v) with ordinality as e(code, n)
              group by e.code) d),
    '{}'::text[]
  );
end
$function$;

CREATE OR REPLACE FUNCTION internal.booking_draft(p jsonb, uid uuid)
 RETURNS internal.booking_draft
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  d internal.booking_draft;
  insurance_codes text[];
  phone text;
begin
  d.id := internal.booking_payload_id(p);

  d.reference := internal.payload_text(p, 'reference');
  if d.reference is null or d.reference !~ '^KR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$' then
    perform internal.fail('invalid_reference', coalesce(d.reference, 'reference is required'));
  end if;

  d.start_at := internal.payload_instant(p, 'start_at');
  d.end_at := internal.payload_instant(p, 'end_at');
  if d.start_at is null or d.end_at is null then
    perform internal.fail('invalid_dates', 'start_at and end_at are required');
  end if;
  if d.end_at <= d.start_at then
    perform internal.fail('invalid_dates', 'end_at must be after start_at');
  end if;
  if d.end_at - d.start_at > make_interval(days => internal.app_limit('rental_days')) then
    perform internal.fail('rental_too_long',
      format('a rental lasts at most %s days', internal.app_limit('rental_days')));
  end if;

  d.car_id := internal.payload_uuid(p, 'car_id');
  d.pickup_location_id := internal.payload_uuid(p, 'pickup_location_id');
  d.dropoff_location_id := internal.payload_uuid(p, 'dropoff_location_id');
  if d.pickup_location_id is null then
    perform internal.fail('location_not_found', 'pickup_location_id is required');
  end if;
  if d.dropoff_location_id is null then
    perform internal.fail('location_not_found', 'dropoff_location_id is required');
  end if;
  d.driver_option := internal.payload_text(p, 'driver_option');
  d.extras := internal.payload_codes(p, 'extras');
  -- Civil liability is part of every booking; codes are a set, kept in first-seen order.
  insurance_codes := internal.payload_codes(p, 'insurance');
  d.insurance := case
    when insurance_codes <@ array['civil_liability'] then array['civil_liability']
    else array(
      select i.c
        from unnest(array['civil_liability'] || insurance_codes) with ordinality as i(c, n)
       group by i.c
       order by min(i.n))
  end;

  d.additional_requests := nullif(trim(internal.payload_text(p, 'additional_requests')), '');
  if char_length(d.additional_requests) > internal.app_limit('text') then
    perform internal.fail('additional_requests_too_long',
      char_length(d.additional_requests) || ' characters');
  end if;

  if internal.payload_text(p, 'payment_method') is distinct from null
     and internal.payload_text(p, 'payment_method') <> 'cash' then
    perform internal.fail('invalid_payload', 'payment_method must be cash');
  end if;

  d.locale := coalesce(internal.payload_text(p, 'locale'), 'fr');
  if d.locale not in ('fr', 'en', 'ar') then
    perform internal.fail('invalid_payload', 'locale must be fr, en or ar');
  end if;

  if uid is null then
    d.guest_name := nullif(trim(internal.payload_text(p, 'guest_name')), '');
    d.guest_phone := nullif(trim(internal.payload_text(p, 'guest_phone')), '');
    d.guest_email := nullif(trim(internal.payload_text(p, 'guest_email')), '');
    if d.guest_name is null or d.guest_phone is null or d.guest_email is null then
      perform internal.fail('guest_contact_required', concat_ws(', ',
        case when d.guest_name is null then 'guest_name' end,
        case when d.guest_phone is null then 'guest_phone' end,
        case when d.guest_email is null then 'guest_email' end));
    end if;
    if char_length(d.guest_name) > internal.app_limit('name') then
      perform internal.fail('invalid_payload',
        format('guest_name is longer than %s characters', internal.app_limit('name')));
    end if;
    if d.guest_name ~ '[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]' then
      perform internal.fail('invalid_name',
        'guest_name contains a control character, a line break or a direction override');
    end if;
    if not internal.is_mailable_address(d.guest_email) then
      perform internal.fail('invalid_email', d.guest_email);
    end if;
    phone := internal.normalize_phone(d.guest_phone);
    if phone is null then
      perform internal.fail('invalid_phone', d.guest_phone);
    end if;
    d.guest_phone := phone;
  end if;

  d.license_path := internal.payload_text(p, 'license_path');
  d.from_abroad := internal.payload_boolean(p, 'from_abroad', false);
  d.flight_document_path := internal.payload_text(p, 'flight_document_path');
  return d;
end
$function$;

CREATE OR REPLACE FUNCTION internal.price_booking(car_id uuid, start_at timestamp with time zone, end_at timestamp with time zone, pickup_location_id uuid, dropoff_location_id uuid, driver_option text, extras text[], insurance text[])
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  car public.cars;
  days bigint;
  base bigint;
  extras_total bigint;
  insurance_total bigint;
  driver_total bigint := 0;
  pickup_fee bigint := 0;
  dropoff_fee bigint := 0;
  subtotal bigint;
  missing text;
  codes text[] := case
    when coalesce(price_booking.insurance, '{}') <@ array['civil_liability'] then array['civil_liability']
    else array(
      select distinct c from unnest(array['civil_liability'] || price_booking.insurance) c)
  end;
  no_extras boolean := coalesce(cardinality(price_booking.extras), 0) = 0;
begin
  if price_booking.start_at is null or price_booking.end_at is null then
    perform internal.fail('invalid_dates', 'start_at and end_at are required');
  end if;
  if price_booking.end_at <= price_booking.start_at then
    perform internal.fail('invalid_dates', 'end_at must be after start_at');
  end if;

  select c.* into car from public.cars c where c.id = price_booking.car_id and c.active;
  if not found then
    perform internal.fail('car_not_found', coalesce(price_booking.car_id::text, 'car_id is required'));
  end if;

  if price_booking.pickup_location_id is not null then
    select l.delivery_fee_dzd into pickup_fee
      from public.locations l where l.id = price_booking.pickup_location_id and l.active;
    if not found then
      perform internal.fail('location_not_found', 'pickup_location_id');
    end if;
  end if;
  if price_booking.dropoff_location_id is not distinct from price_booking.pickup_location_id then
    dropoff_fee := pickup_fee;
  elsif price_booking.dropoff_location_id is not null then
    select l.delivery_fee_dzd into dropoff_fee
      from public.locations l where l.id = price_booking.dropoff_location_id and l.active;
    if not found then
      perform internal.fail('location_not_found', 'dropoff_location_id');
    end if;
  end if;

  if price_booking.driver_option is null or price_booking.driver_option not in ('self', 'provided') then
    perform internal.fail('invalid_driver_option', coalesce(price_booking.driver_option, 'missing'));
  end if;

  if not no_extras then
    select c into missing
      from unnest(price_booking.extras) c
     where not exists (select 1 from public.extras e where e.code = c and e.active)
     limit 1;
    if missing is not null then
      perform internal.fail('unknown_extra', missing);
    end if;
  end if;

  select c into missing
    from unnest(codes) c
   where not exists (select 1 from public.insurance_options i where i.code = c and i.active)
   limit 1;
  if missing is not null then
    perform internal.fail('unknown_insurance', missing);
  end if;

  days := greatest(
    1,
    ceil((extract(epoch from price_booking.end_at) - extract(epoch from price_booking.start_at)) / 86400)
  );
  base := days * car.daily_rate_dzd;

  if no_extras then
    extras_total := 0;
  else
    select coalesce(sum(case when e.per = 'day' then e.price_dzd * days else e.price_dzd end), 0)
      into extras_total
      from public.extras e
     where e.code = any (array(select distinct unnest(price_booking.extras)));
  end if;

  select coalesce(sum(i.price_dzd_per_day * days), 0)
    into insurance_total
    from public.insurance_options i
   where i.code = any (codes) and not i.included;

  if price_booking.driver_option = 'provided' then
    select s.driver_per_day_dzd * days into driver_total from public.settings s where s.id = 1;
  end if;

  subtotal := base + extras_total + insurance_total + driver_total + pickup_fee + dropoff_fee;

  return jsonb_build_object(
    'days', days,
    'base', base,
    'extras_total', extras_total,
    'insurance_total', insurance_total,
    'driver_total', driver_total,
    'pickup_fee', pickup_fee,
    'dropoff_fee', dropoff_fee,
    'subtotal', subtotal,
    'deposit', car.deposit_dzd,
    'total', subtotal,
    'currency', 'DZD'
  );
end
$function$;
