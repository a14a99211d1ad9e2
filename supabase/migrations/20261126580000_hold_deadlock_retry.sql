-- Two transactions inserting overlapping holds of one car at the same moment (a booking and a
-- block, or two confirmations) can each find the other's uncommitted row under the
-- car_holds_no_overlap exclusion and wait for it: PostgreSQL then aborts one with
-- `deadlock detected` (40P01), which reached the caller as is (seen on PostgreSQL 15 in
-- tests/api/car-blocks.test.ts, a race of five bookings and five blocks). The hold's insert now
-- runs in its own subtransaction and, when chosen as the victim, tries again: the other side
-- has gone on meanwhile, so the second try either holds the car or meets the exclusion and
-- answers the usual code (car_unavailable through bookings_no_overlap, block_collides).
-- create_booking does the same for its insert, which bookings_no_overlap checks first.

CREATE OR REPLACE FUNCTION internal.sync_booking_hold()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if tg_op = 'UPDATE' then
    delete from internal.car_holds h where h.booking_id = new.id;
  end if;
  if internal.booking_holds_car(new.status, new.confirm_by, new.contact_confirmed_at) then
    for attempt in 1..3 loop
      begin
        insert into internal.car_holds (car_id, period, booking_id)
        values (new.car_id, new.period, new.id);
        exit;
      exception
        when exclusion_violation then
          raise exception using
            errcode = 'exclusion_violation',
            constraint = 'bookings_no_overlap',
            message = 'car_blocked',
            detail = new.car_id::text;
        when deadlock_detected then
          if attempt = 3 then
            raise;
          end if;
      end;
    end loop;
  elsif tg_op = 'INSERT' and exists (
    select from public.car_blocks k where k.car_id = new.car_id and k.period && new.period
  ) then
    perform internal.fail('car_unavailable', new.car_id::text);
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION internal.sync_block_hold()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if tg_op = 'UPDATE' then
    delete from internal.car_holds h where h.block_id = new.id;
  end if;
  for attempt in 1..3 loop
    begin
      insert into internal.car_holds (car_id, period, block_id)
      values (new.car_id, new.period, new.id);
      exit;
    exception
      when exclusion_violation then
        perform internal.fail('block_collides', new.car_id::text);
      when deadlock_detected then
        if attempt = 3 then
          raise;
        end if;
    end;
  end loop;
  return null;
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
  request_hash := internal.booking_request_hash(p, uid);

  select b.* into stored from public.bookings b where b.id = new_id;
  if found then
    return internal.replay_booking(stored, request_hash);
  end if;

  d := internal.booking_draft(p, uid);
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

  -- A deadlock under bookings_no_overlap (two inserts of overlapping bookings at once, each
  -- waiting for the other's row) aborts the loser's insert only: it tries again and meets the
  -- winner's row as a plain conflict (car_unavailable).
  for attempt in 1..3 loop
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
    exit;
  exception
    when deadlock_detected then
      if attempt = 3 then
        raise;
      end if;
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
  end loop;

  if stored.id is null then
    -- The same id arrived twice at once and the other call stored it first.
    select b.* into stored from public.bookings b where b.id = new_id;
    return internal.replay_booking(stored, request_hash);
  end if;

  insert into internal.booking_requests (booking_id, request_hash) values (stored.id, request_hash);
  if uid is null then
    code := internal.new_confirmation_code();
    insert into internal.guest_confirmations (booking_id, code_hash)
    values (stored.id, internal.confirmation_code_hash(stored.id, code));
    perform internal.enqueue_guest_mail(stored, 'guest_confirmation', code);
  end if;
  return internal.booking_public_json(stored);
end
$function$;
