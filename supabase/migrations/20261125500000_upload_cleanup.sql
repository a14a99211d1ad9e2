-- Booking files that no booking names are removed after 7 days (docs/decisions.md, "Booking
-- files: what is kept"). A visitor uploads the licence (and the flight document) before
-- create_booking; when no booking ever names the file (the booking was abandoned, refused at
-- sync, or the upload was junk), it goes. Files a booking names stay with the booking, whatever
-- its status. The removal goes through the Storage API (the `clean-uploads` Edge Function, daily
-- on pg_cron), so the object and its bytes go together: on hosted Supabase the database alone
-- cannot remove bytes, and storage-api refuses a direct `delete from storage.objects`.
--
-- A file can become named while the job removes it (a booking queued offline a week ago reaches
-- the server at that moment). Two rules close that race: create_booking's check that the file
-- exists locks the object's row until the booking commits, and a file a live booking names is
-- never deleted (the delete skips it). Either the booking sees the file gone and answers
-- licence_required (the app asks for the file again), or the file stays.

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- How long a booking file no booking names is kept: the one number of this rule. The privacy
-- policy promises it (« supprimés après sept jours »): change both together.
create or replace function internal.orphan_upload_age()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '7 days'
$$;

-- True when a booking names this object: its licence in `licenses`, its flight document in
-- `flight-documents` (the only columns that point at files; booking_requests keeps a hash of the
-- paths, booking_refusals none). `live_only`: only bookings that still need their documents
-- (pending, reserved, in_progress).
create or replace function internal.booking_names_file(
  bucket text,
  file_name text,
  live_only boolean default false
)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (
    select 1
      from public.bookings b
     where ((bucket = 'licenses' and b.license_path = file_name)
         or (bucket = 'flight-documents' and b.flight_document_path = file_name))
       and (not live_only or b.status in ('pending', 'reserved', 'in_progress')))
$$;

-- True when a file exists at `path` in `bucket` and sits in the booking's own folder. The row is
-- locked (key share) until the caller's transaction ends, so a concurrent delete of that object
-- waits for the booking and then sees it (internal.keep_live_booking_files).
create or replace function internal.booking_file_exists(bucket text, booking_id uuid, path text)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
begin
  if path is null or path !~ ('^' || booking_id::text || '/[^/]+$') then
    return false;
  end if;
  perform 1 from storage.objects o
   where o.bucket_id = bucket and o.name = path
     for key share;
  return found;
end
$$;

-- Before a booking file's row is deleted (the Storage API's delete, any caller): a file a live
-- booking names is kept (the row is skipped, so Storage keeps its bytes and does not list it as
-- removed), unless check-upload refused it. Files of finished bookings may still be removed by
-- staff (a request to erase them).
create or replace function internal.keep_live_booking_files()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if internal.booking_names_file(old.bucket_id, old.name, live_only => true)
     and not exists (
       select 1 from internal.upload_checks c
        where c.bucket_id = old.bucket_id and c.name = old.name and c.verdict = 'rejected') then
    raise warning 'kept %/%: a live booking names it', old.bucket_id, old.name;
    return null;
  end if;
  return old;
end
$$;

-- clean-uploads: up to `batch` (1..1000, the Storage API's limit per delete) booking files that
-- no booking names and that were uploaded more than internal.orphan_upload_age() ago, oldest
-- first, as `{bucket_id, name, created_at}`; the caller removes them through the Storage API.
-- `after` (the last item of the previous batch) continues the list past files that could not be
-- removed. The first call (no `after`) also forgets the verdicts (internal.upload_checks) of
-- files that are gone and that no booking names, once they are as old; a refused file's verdict
-- explains its booking's refusal and stays with the booking.
create or replace function public.edge_stale_uploads(batch integer default 100, after jsonb default null)
returns setof jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  cutoff timestamptz := now() - internal.orphan_upload_age();
  after_created timestamptz := (edge_stale_uploads.after ->> 'created_at')::timestamptz;
  after_bucket text := edge_stale_uploads.after ->> 'bucket_id';
  after_name text := edge_stale_uploads.after ->> 'name';
begin
  if edge_stale_uploads.after is null then
    delete from internal.upload_checks c
     where c.checked_at < cutoff
       and not exists (
         select 1 from storage.objects o where o.bucket_id = c.bucket_id and o.name = c.name)
       and not internal.booking_names_file(c.bucket_id, c.name);
  elsif after_created is null or after_bucket is null or after_name is null then
    perform internal.fail('invalid_payload', 'after must be an item of the previous batch');
  end if;
  return query
    select jsonb_build_object('bucket_id', o.bucket_id, 'name', o.name, 'created_at', o.created_at)
      from storage.objects o
     where o.bucket_id in ('licenses', 'flight-documents')
       and o.created_at < cutoff
       and (after_created is null
         or (o.created_at, o.bucket_id, o.name) > (after_created, after_bucket, after_name))
       and not internal.booking_names_file(o.bucket_id, o.name)
     order by o.created_at, o.bucket_id, o.name
     limit least(greatest(coalesce(edge_stale_uploads.batch, 100), 1), 1000);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
create trigger booking_files_keep_live
  before delete on storage.objects
  for each row
  when (old.bucket_id in ('licenses', 'flight-documents'))
  execute function internal.keep_live_booking_files();

-- ---------------------------------------------------------------------------------------------
-- Schedules (pg_cron): every day at 03:17 UTC (04:17 in Algiers), a quiet hour.
-- ---------------------------------------------------------------------------------------------
select cron.schedule('clean-uploads', '17 3 * * *',
  $$select internal.invoke_edge_function('clean-uploads', '{"type": "SWEEP"}')$$);

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function internal.orphan_upload_age() from public;
revoke all on function internal.booking_names_file(text, text, boolean) from public;
revoke all on function internal.booking_file_exists(text, uuid, text) from public;
revoke all on function internal.keep_live_booking_files() from public;

revoke all on function public.edge_stale_uploads(integer, jsonb) from public, anon, authenticated;
grant execute on function public.edge_stale_uploads(integer, jsonb) to service_role;
