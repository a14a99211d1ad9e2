-- Anonymous uploads only where a booking will name them, within a budget per source
-- (docs/decisions.md, "Guest uploads"). One client stored 20 anonymous 1 MB files in 0.7 s under
-- random folders, each one a check-upload call, each kept 7 days. Now a visitor may add one file
-- per bucket to the folder of a booking not made yet (a licence, a flight document: what a
-- booking names), the files a client address uploaded in the last hour that no booking names yet
-- weigh at most settings.max_guest_upload_mb_per_address_hour together (a traveller's file is
-- named by their booking seconds after it arrives, so a hall of travellers never fills it), and
-- files no booking names go after a day instead of seven.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
-- One row per file a visitor without an account uploaded: where from and how large. Kept a day.
create table internal.guest_uploads (
  bucket_id text not null,
  name text not null,
  client_key text,
  size_bytes bigint not null default 0,
  created_at timestamptz not null default now(),
  primary key (bucket_id, name)
);

comment on table internal.guest_uploads is
  'Booking files uploaded without an account: the client address and size, for the upload budget.';

alter table public.settings
  -- Megabytes of anonymous uploads that no booking names yet, per client address and hour.
  add column max_guest_upload_mb_per_address_hour smallint not null default 20;

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table internal.guest_uploads
  add constraint guest_uploads_client_key_length check (char_length(client_key) <= 64),
  add constraint guest_uploads_size_positive check (size_bytes >= 0);

alter table public.settings
  add constraint settings_max_guest_upload_mb_range
    check (max_guest_upload_mb_per_address_hour between 5 and 1000);

create index guest_uploads_client_key_idx on internal.guest_uploads (client_key, created_at);
create index guest_uploads_created_at_idx on internal.guest_uploads (created_at);

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- How long a booking file no booking names is kept: a day. The app uploads a file right before it
-- sends the booking, so a booking names its file within seconds; a device that went offline in
-- between for more than a day is answered licence_required and asks for the file again. The
-- privacy policy says it (« supprimés après 24 heures »): change both together.
create or replace function internal.orphan_upload_age()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '1 day'
$$;

-- The size of an object as storage records it (metadata.size), 0 when unknown.
create or replace function internal.object_size(metadata jsonb)
returns bigint
language sql
immutable
set search_path = ''
as $$
  select case when metadata ->> 'size' ~ '^[0-9]{1,15}$' then (metadata ->> 'size')::bigint else 0 end
$$;

-- Whether a visitor without an account may add `name` (with `metadata`) to `bucket`: the folder
-- of a booking not made yet holds no file of that bucket (one licence, one flight document), and
-- the caller's address has uploaded less than its hourly budget of files no booking names
-- (settings.max_guest_upload_mb_per_address_hour, this file included). authz.may_upload_booking_file
-- says the rest (a well-formed path, no booking with that id).
create or replace function authz.may_add_guest_file(bucket text, name text, metadata jsonb)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  folder uuid := authz.booking_folder(name);
  caller text := internal.client_address_key();
  budget bigint;
  used bigint;
begin
  if folder is null then
    return false;
  end if;
  -- Another file in the folder is refused; the same one again passes here, so its upload answers
  -- 409 Duplicate (the device's retry of an upload whose answer was lost treats that as done).
  if exists (
    select from storage.objects o
     where o.bucket_id = bucket and o.name like folder::text || '/%'
       and o.name <> may_add_guest_file.name
  ) then
    return false;
  end if;
  if caller is null then
    return true;
  end if;
  select coalesce(max(s.max_guest_upload_mb_per_address_hour), 20)::bigint * 1024 * 1024
    into budget
    from public.settings s where s.id = 1;
  select coalesce(sum(u.size_bytes), 0) into used
    from internal.guest_uploads u
   where u.client_key = caller
     and u.created_at > now() - interval '1 hour'
     and (u.bucket_id, u.name) <> (bucket, may_add_guest_file.name)
     and not internal.booking_names_file(u.bucket_id, u.name);
  return used + internal.object_size(metadata) <= budget;
end
$$;

-- A file a visitor without an account stored: its client address and size, for the budget.
create or replace function internal.record_guest_upload()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.owner is null and new.bucket_id in ('licenses', 'flight-documents') then
    insert into internal.guest_uploads (bucket_id, name, client_key, size_bytes)
    values (new.bucket_id, new.name, left(internal.client_address_key(), 64),
      internal.object_size(new.metadata))
    on conflict (bucket_id, name) do update
      set client_key = excluded.client_key, size_bytes = excluded.size_bytes, created_at = now();
  end if;
  return null;
end
$$;

-- The periodic job (every minute), which now also forgets guest uploads older than a day.
create or replace function internal.expire_unconfirmed_bookings(batch integer default 500)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  expired integer := internal.expire_lapsed_bookings(batch => greatest(coalesce(batch, 500), 1));
begin
  delete from internal.confirmation_failures f where f.failed_at < now() - interval '1 day';
  update internal.booking_sources src
     set client_key = null
    from public.bookings b
   where b.id = src.booking_id
     and src.client_key is not null
     and b.status <> 'pending'
     and b.updated_at < now() - interval '1 day';
  delete from internal.mail_dropped d where d.created_at < now() - interval '30 days';
  update public.booking_refusals r
     set client_key = null
   where r.client_key is not null and r.created_at < now() - interval '1 day';
  delete from public.booking_refusals r where r.created_at < now() - interval '30 days';
  delete from internal.guest_lookup_failures f where f.failed_at < now() - interval '1 day';
  delete from internal.guest_uploads u where u.created_at < now() - interval '1 day';
  return expired;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
create trigger objects_record_guest_upload
  after insert on storage.objects
  for each row
  execute function internal.record_guest_upload();

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
alter table internal.guest_uploads enable row level security;

drop policy "Guests upload files for a booking not made yet" on storage.objects;
create policy "Guests upload one file per bucket for a booking not made yet, within the budget"
  on storage.objects for insert to anon
  with check (
    bucket_id in ('licenses', 'flight-documents')
    and authz.may_upload_booking_file(name)
    and authz.may_add_guest_file(bucket_id, name, metadata)
  );

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on table internal.guest_uploads from public;
grant update (max_guest_upload_mb_per_address_hour) on table public.settings to authenticated;
revoke all on function internal.object_size(jsonb) from public;
revoke all on function authz.may_add_guest_file(text, text, jsonb) from public;
grant execute on function authz.may_add_guest_file(text, text, jsonb) to anon;
revoke all on function internal.record_guest_upload() from public;
