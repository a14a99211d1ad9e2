-- The numbers of the fleet and of pickup and return records join the one home of limits
-- (`internal.app_limit(name)`, as `LIMITS` in src/domain/limits.ts; held equal by
-- tests/api/limits.test.ts): a car's mileage and an odometer reading (2,000,000 km), an amount in
-- DZD (a car's daily rate and deposit, a deposit held or kept: 10,000,000), damage marks on one
-- record (30) and a mark's note (200 characters). The fleet form refused more than these numbers
-- while the cars table took any: its mileage, daily rate and deposit now have the same ceilings.

CREATE OR REPLACE FUNCTION internal.app_limit(name text)
 RETURNS integer
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
declare
  value integer := case name
    when 'name' then 100             -- a person's name: profile full name, guest name (trimmed)
    when 'address' then 200          -- a profile's postal address
    when 'email' then 254            -- an e-mail address (RFC 5321)
    when 'age_min' then 18
    when 'age_max' then 120
    when 'text' then 500             -- additional requests, a staff member's reason
    when 'rental_days' then 90       -- the longest rental
    when 'upload_bytes' then 5242880 -- a booking file or car photo (the buckets' limit)
    when 'block_reason' then 300     -- why staff block a car (staff_block_car, car_blocks)
    when 'closed_dates' then 366     -- closed dates of one place (locations.closed_dates)
    when 'price_dzd' then 1000000    -- one catalogue price: fee, extra, insurance/day, driver/day
    when 'car_pictures' then 12      -- a car's pictures (staff_set_car_pictures, cars.images)
    when 'odometer_km' then 2000000  -- a car's mileage, a pickup's or return's odometer
    when 'amount_dzd' then 10000000  -- a car's daily rate and deposit, a deposit held or kept
    when 'damage_marks' then 30      -- damage marks on one pickup or return record
    when 'damage_note' then 200      -- one damage mark's note
  end;
begin
  if value is null then
    raise exception 'unknown limit %', name using errcode = '22023';
  end if;
  return value;
end
$function$;

CREATE OR REPLACE FUNCTION internal.valid_handover_damage(damage jsonb)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select jsonb_typeof(damage) = 'array'
     and jsonb_array_length(damage) <= internal.app_limit('damage_marks')
     and not exists (
       select 1 from jsonb_array_elements(damage) d
        where jsonb_typeof(d) <> 'object'
           or case when jsonb_typeof(d -> 'x') = 'number' and jsonb_typeof(d -> 'y') = 'number'
                   then (d ->> 'x')::numeric not between 0 and 100
                     or (d ->> 'y')::numeric not between 0 and 100
                   else true end
           or (jsonb_typeof(d -> 'zone') is distinct from 'null'
               and not (d ->> 'zone' = any (internal.handover_zones())))
           or jsonb_typeof(d -> 'note') is distinct from 'string'
           or char_length(d ->> 'note') > internal.app_limit('damage_note')
           or internal.has_hidden_characters(d ->> 'note')
           or exists (select 1 from jsonb_object_keys(d) k where k not in ('x', 'y', 'zone', 'note')))
$function$;

CREATE OR REPLACE FUNCTION public.staff_record_handover(p jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  rec_id uuid;
  bid uuid;
  k text;
  stored public.booking_handovers;
  km integer;
  fuel integer;
  photos jsonb := coalesce(p -> 'photos', '[]'::jsonb);
  damage jsonb := coalesce(p -> 'damage', '[]'::jsonb);
  notes text := nullif(btrim(coalesce(p ->> 'notes', '')), '');
  doc_type text := nullif(btrim(coalesce(p ->> 'id_document_type', '')), '');
  doc_number text := nullif(upper(btrim(coalesce(p ->> 'id_document_number', ''))), '');
  deposit_status text := p ->> 'deposit_status';
  reason text := nullif(btrim(coalesce(p ->> 'deposit_reason', '')), '');
  deposit integer;
  kept integer;
  photo jsonb;
  verdict text;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  if p is null or jsonb_typeof(p) <> 'object' then
    perform internal.fail('invalid_payload', 'p');
  end if;
  begin
    rec_id := (p ->> 'id')::uuid;
    bid := (p ->> 'booking_id')::uuid;
  exception when invalid_text_representation then
    perform internal.fail('invalid_payload', 'id, booking_id');
  end;
  k := p ->> 'kind';
  if rec_id is null or bid is null or k is null or k not in ('pickup', 'return') then
    perform internal.fail('invalid_payload', 'id, booking_id, kind');
  end if;

  -- A replay answers the stored record.
  select * into stored from public.booking_handovers h where h.id = rec_id;
  if found then
    if stored.booking_id <> bid or stored.kind <> k then
      perform internal.fail('idempotency_key_reused', rec_id::text);
    end if;
    return internal.handover_json(stored);
  end if;

  if not exists (select 1 from public.bookings b where b.id = bid) then
    perform internal.fail('not_found', bid::text);
  end if;
  if exists (select 1 from public.booking_handovers h where h.booking_id = bid and h.kind = k) then
    perform internal.fail('handover_exists', k);
  end if;

  km := internal.json_whole_number(p -> 'odometer_km', 0, internal.app_limit('odometer_km'));
  if km is null then
    perform internal.fail('odometer_invalid', 'odometer_km');
  end if;
  fuel := internal.json_whole_number(p -> 'fuel_eighths', 0, 8);
  if fuel is null then
    perform internal.fail('fuel_invalid', 'fuel_eighths');
  end if;

  if k = 'pickup' then
    if doc_type is null or doc_type not in ('national_id', 'passport', 'driving_licence')
       or doc_number is null or doc_number !~ '^[A-Z0-9][A-Z0-9 -]{2,28}[A-Z0-9]$' then
      perform internal.fail('id_document_required', 'id_document_type, id_document_number');
    end if;
    if (p -> 'licence_seen') is distinct from 'true'::jsonb then
      perform internal.fail('licence_not_seen', 'licence_seen');
    end if;
    deposit := internal.json_whole_number(p -> 'deposit_dzd', 0, internal.app_limit('amount_dzd'));
    if deposit is null then
      perform internal.fail('deposit_invalid', 'deposit_dzd');
    end if;
    deposit_status := 'held';
    reason := null;
  else
    doc_type := null;
    doc_number := null;
    if deposit_status is null or deposit_status not in ('returned', 'kept') then
      perform internal.fail('deposit_invalid', 'deposit_status');
    end if;
    if deposit_status = 'kept' then
      kept := internal.json_whole_number(p -> 'deposit_kept_dzd', 1, internal.app_limit('amount_dzd'));
      if kept is null then
        perform internal.fail('deposit_invalid', 'deposit_kept_dzd');
      end if;
      if reason is null then
        perform internal.fail('deposit_reason_required', 'deposit_reason');
      end if;
      if char_length(reason) > internal.app_limit('text') then
        perform internal.fail('deposit_reason_too_long', 'deposit_reason');
      end if;
      if internal.has_hidden_characters(reason) then
        perform internal.fail('invalid_text', 'deposit_reason');
      end if;
    else
      reason := null;
    end if;
  end if;

  if notes is not null and char_length(notes) > internal.app_limit('text') then
    perform internal.fail('notes_too_long', 'notes');
  end if;
  if internal.has_hidden_characters(notes) then
    perform internal.fail('notes_invalid', 'notes');
  end if;
  if not internal.valid_handover_damage(damage) then
    perform internal.fail('damage_invalid', 'damage');
  end if;
  if not internal.valid_handover_photos(photos, bid, rec_id) then
    perform internal.fail('photo_invalid', 'photos');
  end if;
  -- Each photo must be stored (the phone uploads them first), and not refused by its bytes.
  for photo in select value from jsonb_array_elements(photos) loop
    if not exists (
      select 1 from storage.objects o
       where o.bucket_id = 'handovers' and o.name = photo ->> 'path'
    ) then
      perform internal.fail('photo_missing', photo ->> 'path');
    end if;
    select c.verdict into verdict
      from internal.upload_checks c
     where c.bucket_id = 'handovers' and c.name = photo ->> 'path';
    if verdict = 'rejected' then
      perform internal.fail('file_rejected', 'handovers/' || (photo ->> 'path'));
    end if;
  end loop;

  insert into public.booking_handovers (
    id, booking_id, kind, odometer_km, fuel_eighths, id_document_type, id_document_number,
    licence_seen, deposit_dzd, deposit_status, deposit_kept_dzd, deposit_reason, photos, damage,
    notes, recorded_at, recorded_by)
  values (
    rec_id, bid, k, km, fuel, doc_type, doc_number,
    case when k = 'pickup' then true end, deposit, deposit_status, kept, reason, photos, damage,
    notes,
    coalesce(least(nullif(p ->> 'recorded_at', '')::timestamptz, now()), now()),
    auth.uid())
  returning * into stored;

  insert into public.booking_events (booking_id, status, actor, actor_id)
  values (bid, k || '_recorded', 'staff', auth.uid());

  return internal.handover_json(stored);
exception
  when invalid_datetime_format or datetime_field_overflow then
    perform internal.fail('invalid_payload', 'recorded_at');
    return null;
end
$function$;

alter table public.cars
  drop constraint cars_daily_rate_positive,
  drop constraint cars_deposit_positive,
  drop constraint cars_mileage_positive,
  add constraint cars_daily_rate_range
    check (daily_rate_dzd between 1 and internal.app_limit('amount_dzd')),
  add constraint cars_deposit_range
    check (deposit_dzd between 0 and internal.app_limit('amount_dzd')),
  add constraint cars_mileage_range
    check (mileage_km between 0 and internal.app_limit('odometer_km'));

alter table public.booking_handovers
  drop constraint booking_handovers_odometer_range,
  drop constraint booking_handovers_pickup_fields,
  drop constraint booking_handovers_return_fields,
  add constraint booking_handovers_odometer_range
    check (odometer_km between 0 and internal.app_limit('odometer_km')),
  add constraint booking_handovers_pickup_fields CHECK (((kind <> 'pickup'::text) OR COALESCE(((id_document_type = ANY (ARRAY['national_id'::text, 'passport'::text, 'driving_licence'::text])) AND (id_document_number ~ '^[A-Za-z0-9][A-Za-z0-9 -]{2,28}[A-Za-z0-9]$'::text) AND (licence_seen IS TRUE) AND ((deposit_dzd >= 0) AND (deposit_dzd <= internal.app_limit('amount_dzd'::text))) AND (deposit_status = 'held'::text) AND (deposit_kept_dzd IS NULL) AND (deposit_reason IS NULL)), false))),
  add constraint booking_handovers_return_fields CHECK (((kind <> 'return'::text) OR COALESCE(((id_document_type IS NULL) AND (id_document_number IS NULL) AND (licence_seen IS NULL) AND (deposit_dzd IS NULL) AND (((deposit_status = 'returned'::text) AND (deposit_kept_dzd IS NULL) AND (deposit_reason IS NULL)) OR ((deposit_status = 'kept'::text) AND ((deposit_kept_dzd >= 1) AND (deposit_kept_dzd <= internal.app_limit('amount_dzd'::text))) AND ((char_length(btrim(deposit_reason)) >= 1) AND (char_length(btrim(deposit_reason)) <= internal.app_limit('text'::text)))))), false)));
