-- function public.staff_record_handover(p jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

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

grant execute on function public.staff_record_handover(p jsonb) to authenticated;
grant execute on function public.staff_record_handover(p jsonb) to service_role;
