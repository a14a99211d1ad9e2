-- function public.create_booking(p jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

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

grant execute on function public.create_booking(p jsonb) to anon;
grant execute on function public.create_booking(p jsonb) to authenticated;
grant execute on function public.create_booking(p jsonb) to service_role;
