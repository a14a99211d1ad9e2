-- function internal.booking_draft(p jsonb, uid uuid): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

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

