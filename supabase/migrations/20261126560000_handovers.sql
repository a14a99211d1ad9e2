-- Pickup and return records (docs/handovers.md): at pickup staff record the identity document
-- checked, the licence seen, the cash deposit received, the odometer, the fuel level, photos from
-- the checklist angles and damage pinned on a car outline; at return the odometer, fuel, photos,
-- damage and whether the deposit was returned or kept (with a reason). One of each per booking.
--
-- Staff (admins at aal2) write only through staff_record_handover, idempotent on the record's id
-- (made on the phone, which may be offline: the outbox replays it). The booking's customer reads
-- the records of their own bookings, with the identity document's number masked (column
-- privileges: the full number is not granted to `authenticated`; staff read it through
-- staff_booking_handovers). Photos live in the private bucket `handovers`, under
-- `{booking_id}/{record_id}-{angle}.{ext}`; the RPC checks each named object exists.

-- ---------------------------------------------------------------------------------------------
-- Functions used by the constraints
-- ---------------------------------------------------------------------------------------------

-- The checklist angles a photo may be taken from.
create or replace function internal.handover_angles()
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select array['front', 'back', 'left', 'right', 'front_left', 'front_right', 'rear_left', 'rear_right']
$$;

-- The zones of the car outline a damage mark may name (the keyboard's way to add one).
create or replace function internal.handover_zones()
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select array['front', 'back', 'left', 'right', 'roof', 'front_left', 'front_right',
               'rear_left', 'rear_right', 'interior']
$$;

-- A JSON number that is a whole number in [lo, hi], as an integer; null for anything else.
create or replace function internal.json_whole_number(v jsonb, lo numeric, hi numeric)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when jsonb_typeof(v) is distinct from 'number' then null
    when (v #>> '{}')::numeric <> trunc((v #>> '{}')::numeric) then null
    when (v #>> '{}')::numeric not between lo and hi then null
    else (v #>> '{}')::integer
  end
$$;

-- Photos: an array of at most 8 {angle, path}, one per angle, each path in the record's folder
-- `{booking_id}/{record_id}-{angle}.{jpg|jpeg|png|webp}`.
create or replace function internal.valid_handover_photos(photos jsonb, booking_id uuid, record_id uuid)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select jsonb_typeof(photos) = 'array'
     and jsonb_array_length(photos) <= 8
     and not exists (
       select 1 from jsonb_array_elements(photos) p
        where jsonb_typeof(p) <> 'object'
           or not (p ->> 'angle' = any (internal.handover_angles()))
           or coalesce(p ->> 'path', '') !~ (
                '^' || booking_id::text || '/' || record_id::text || '-' || (p ->> 'angle')
                || '\.(jpg|jpeg|png|webp)$')
           or (select count(*) from jsonb_object_keys(p)) <> 2)
     and (select count(distinct p ->> 'angle') from jsonb_array_elements(photos) p)
         = jsonb_array_length(photos)
$$;

-- Damage marks: an array of at most 30 {x, y, zone, note}: x and y in % of the outline (0–100),
-- zone one of handover_zones() or null, note at most 200 characters without hidden characters.
create or replace function internal.valid_handover_damage(damage jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select jsonb_typeof(damage) = 'array'
     and jsonb_array_length(damage) <= 30
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
           or char_length(d ->> 'note') > 200
           or internal.has_hidden_characters(d ->> 'note')
           or exists (select 1 from jsonb_object_keys(d) k where k not in ('x', 'y', 'zone', 'note')))
$$;

-- The identity document's number as customers see it: all but the last 3 characters hidden.
create or replace function internal.mask_document_number(value text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case when value is null then null
              else repeat('•', greatest(char_length(value) - 3, 3)) || right(value, 3) end
$$;

revoke all on function internal.json_whole_number(jsonb, numeric, numeric) from public;
revoke all on function internal.handover_angles() from public;
revoke all on function internal.handover_zones() from public;
revoke all on function internal.valid_handover_photos(jsonb, uuid, uuid) from public;
revoke all on function internal.valid_handover_damage(jsonb) from public;
revoke all on function internal.mask_document_number(text) from public;
-- CHECK constraints and generated columns run with the writer's rights.
grant execute on function internal.json_whole_number(jsonb, numeric, numeric) to authenticated, service_role;
grant execute on function internal.handover_angles() to authenticated, service_role;
grant execute on function internal.handover_zones() to authenticated, service_role;
grant execute on function internal.valid_handover_photos(jsonb, uuid, uuid) to authenticated, service_role;
grant execute on function internal.valid_handover_damage(jsonb) to authenticated, service_role;
grant execute on function internal.mask_document_number(text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
create table public.booking_handovers (
  -- Made by the staff member's phone: the idempotency key of staff_record_handover.
  id uuid primary key,
  booking_id uuid not null references public.bookings (id) on delete cascade,
  kind text not null,
  odometer_km integer not null,
  -- Fuel level in eighths of a tank (0 = empty, 8 = full).
  fuel_eighths smallint not null,
  -- Pickup only: the identity document checked, and the driving licence seen.
  id_document_type text,
  id_document_number text,
  id_document_masked text generated always as (internal.mask_document_number(id_document_number)) stored,
  licence_seen boolean,
  -- Pickup: the cash deposit received (DZD), `held`. Return: `returned`, or `kept` with the
  -- amount kept and why.
  deposit_dzd integer,
  deposit_status text not null,
  deposit_kept_dzd integer,
  deposit_reason text,
  photos jsonb not null default '[]'::jsonb,
  damage jsonb not null default '[]'::jsonb,
  notes text,
  -- When staff recorded it on the phone (the device's clock); created_at is the server's.
  recorded_at timestamptz not null,
  recorded_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint booking_handovers_one_per_kind unique (booking_id, kind)
);

comment on table public.booking_handovers is
  'Pickup and return records of a booking (staff write through staff_record_handover).';

create index booking_handovers_recorded_by_idx on public.booking_handovers (recorded_by);

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table public.booking_handovers
  add constraint booking_handovers_kind_known check (kind in ('pickup', 'return')),
  add constraint booking_handovers_odometer_range check (odometer_km between 0 and 2000000),
  add constraint booking_handovers_fuel_range check (fuel_eighths between 0 and 8),
  -- coalesce: a CHECK passes on null, and a missing field must not.
  add constraint booking_handovers_pickup_fields check (
    kind <> 'pickup' or coalesce(
      id_document_type in ('national_id', 'passport', 'driving_licence')
      and id_document_number ~ '^[A-Za-z0-9][A-Za-z0-9 -]{2,28}[A-Za-z0-9]$'
      and licence_seen is true
      and deposit_dzd between 0 and 10000000
      and deposit_status = 'held'
      and deposit_kept_dzd is null and deposit_reason is null, false)),
  add constraint booking_handovers_return_fields check (
    kind <> 'return' or coalesce(
      id_document_type is null and id_document_number is null and licence_seen is null
      and deposit_dzd is null
      and ((deposit_status = 'returned' and deposit_kept_dzd is null and deposit_reason is null)
        or (deposit_status = 'kept' and deposit_kept_dzd between 1 and 10000000
            and char_length(btrim(deposit_reason)) between 1 and internal.app_limit('text'))),
      false)),
  add constraint booking_handovers_photos_valid check (
    internal.valid_handover_photos(photos, booking_id, id)),
  add constraint booking_handovers_damage_valid check (internal.valid_handover_damage(damage)),
  add constraint booking_handovers_notes_length check (
    char_length(notes) <= internal.app_limit('text')),
  add constraint booking_handovers_text_clean check (
    not internal.has_hidden_characters(notes)
    and not internal.has_hidden_characters(deposit_reason));

-- The pickup/return history joins the status history (staff read it on the booking's page).
alter table public.booking_events
  drop constraint booking_events_status_known,
  add constraint booking_events_status_known check (
    status in ('pending', 'reserved', 'in_progress', 'completed', 'cancelled', 'rejected',
               'expired', 'pickup_recorded', 'return_recorded')
  );

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- What must hold against the booking and the other record, for any writer: a pickup on a
-- reserved or started booking, a return on a started or completed one after its pickup, with an
-- odometer at least the pickup's. Codes: not_found, handover_wrong_status, pickup_missing,
-- odometer_below_pickup.
create or replace function internal.check_handover()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  booking_status text;
  pickup_km integer;
begin
  select b.status into booking_status from public.bookings b where b.id = new.booking_id for update;
  if booking_status is null then
    perform internal.fail('not_found', new.booking_id::text);
  end if;
  if new.kind = 'pickup' and booking_status not in ('reserved', 'in_progress') then
    perform internal.fail('handover_wrong_status', booking_status);
  end if;
  if new.kind = 'return' then
    if booking_status not in ('in_progress', 'completed') then
      perform internal.fail('handover_wrong_status', booking_status);
    end if;
    select h.odometer_km into pickup_km
      from public.booking_handovers h
     where h.booking_id = new.booking_id and h.kind = 'pickup';
    if pickup_km is null then
      perform internal.fail('pickup_missing', new.booking_id::text);
    end if;
    if new.odometer_km < pickup_km then
      perform internal.fail('odometer_below_pickup', pickup_km::text);
    end if;
  elsif tg_op = 'UPDATE' and exists (
    select 1 from public.booking_handovers h
     where h.booking_id = new.booking_id and h.kind = 'return' and h.odometer_km < new.odometer_km
  ) then
    perform internal.fail('odometer_below_pickup', new.odometer_km::text);
  end if;
  return new;
end
$$;

revoke all on function internal.check_handover() from public, anon, authenticated;

create trigger booking_handovers_check
  before insert or update on public.booking_handovers
  for each row execute function internal.check_handover();

-- A record as staff see it (with the full document number).
create or replace function internal.handover_json(h public.booking_handovers)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select to_jsonb(h)
$$;

revoke all on function internal.handover_json(public.booking_handovers) from public, anon, authenticated;

-- Records a pickup or a return; returns the stored record. Idempotent on p.id: a replay answers
-- the record stored under that id. Codes: not_allowed, invalid_payload, not_found,
-- idempotency_key_reused, handover_exists, handover_wrong_status, pickup_missing,
-- odometer_invalid, odometer_below_pickup, fuel_invalid, id_document_required, licence_not_seen,
-- deposit_invalid, deposit_reason_required, deposit_reason_too_long, invalid_text, photo_invalid,
-- photo_missing, file_rejected, damage_invalid, notes_too_long, notes_invalid.
create or replace function public.staff_record_handover(p jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
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

  km := internal.json_whole_number(p -> 'odometer_km', 0, 2000000);
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
    deposit := internal.json_whole_number(p -> 'deposit_dzd', 0, 10000000);
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
      kept := internal.json_whole_number(p -> 'deposit_kept_dzd', 1, 10000000);
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
$$;

revoke all on function public.staff_record_handover(jsonb) from public, anon, authenticated;
grant execute on function public.staff_record_handover(jsonb) to authenticated, service_role;

-- A booking's records with the full document number, for staff. Code: not_allowed.
create or replace function public.staff_booking_handovers(booking_id uuid)
returns setof jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  return query
    select internal.handover_json(h)
      from public.booking_handovers h
     where h.booking_id = staff_booking_handovers.booking_id
     order by h.kind desc;
end
$$;

revoke all on function public.staff_booking_handovers(uuid) from public, anon, authenticated;
grant execute on function public.staff_booking_handovers(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
alter table public.booking_handovers enable row level security;

create policy "Admins and the booking's customer read pickup and return records"
  on public.booking_handovers for select to authenticated
  using (
    (select public.is_admin())
    or exists (
      select 1 from public.bookings b
       where b.id = booking_handovers.booking_id and b.user_id = (select auth.uid())));

-- ---------------------------------------------------------------------------------------------
-- Grants: no write for the API roles (the RPC writes); every column but the full number.
-- ---------------------------------------------------------------------------------------------
revoke all on table public.booking_handovers from anon, authenticated;
grant select (
  id, booking_id, kind, odometer_km, fuel_eighths, id_document_type, id_document_masked,
  licence_seen, deposit_dzd, deposit_status, deposit_kept_dzd, deposit_reason, photos, damage,
  notes, recorded_at, created_at
) on table public.booking_handovers to authenticated;
grant all on table public.booking_handovers to service_role;

-- ---------------------------------------------------------------------------------------------
-- Storage: the photos (private; JPEG, PNG, WebP by their bytes; the upload size limit)
-- ---------------------------------------------------------------------------------------------
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('handovers', 'handovers', false, internal.app_limit('upload_bytes'),
        array['image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

create policy "Admins add pickup and return photos"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'handovers'
    and (select public.is_admin())
    and authz.booking_folder(name) is not null
  );

create policy "Admins and the booking's customer read pickup and return photos"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'handovers'
    and ((select public.is_admin()) or authz.owns_booking_folder(name))
  );

-- Hosted storage checks only the declared type: check-upload checks these photos' bytes too
-- (a refused photo is removed, and staff_record_handover refuses to name it).
alter table internal.upload_checks
  drop constraint upload_checks_bucket_known,
  add constraint upload_checks_bucket_known
    check (bucket_id in ('licenses', 'flight-documents', 'cars', 'handovers'));

create or replace function public.edge_unchecked_files(
  bucket text default null,
  file_name text default null,
  batch integer default 20
)
returns setof jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
           'bucket_id', o.bucket_id,
           'name', o.name,
           'mimetype', o.metadata ->> 'mimetype',
           'allowed_mime_types', to_jsonb(b.allowed_mime_types))
    from storage.objects o
    join storage.buckets b on b.id = o.bucket_id
   where o.bucket_id in ('licenses', 'flight-documents', 'cars', 'handovers')
     and (edge_unchecked_files.bucket is null or o.bucket_id = edge_unchecked_files.bucket)
     and (edge_unchecked_files.file_name is null or o.name = edge_unchecked_files.file_name)
     and not exists (
       select 1 from internal.upload_checks c where c.bucket_id = o.bucket_id and c.name = o.name)
   order by o.created_at
   limit least(greatest(edge_unchecked_files.batch, 1), 100)
$$;

create trigger handover_photos_check
  after insert on storage.objects
  for each row
  when (new.bucket_id = 'handovers')
  execute function internal.booking_file_webhook();
