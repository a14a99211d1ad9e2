-- Car pictures (docs/fleet.md, "Pictures"): staff upload pictures of a car to the public `cars`
-- bucket (`{car_id}/{file}`, resized on the device) and save their order through
-- staff_set_car_pictures, the one way to change `cars.images` from the API. The first picture is
-- the cover. Stored as `/storage/v1/object/public/cars/{car_id}/{file}`: the bucket's public path,
-- which the app resolves against the API's address (a CHECK-compatible path that names no host,
-- so the same row works locally and on the hosted project). The check-upload Edge Function
-- checks these files by their bytes too (on hosted, storage-api checks only the declared type):
-- a refused picture is removed from its car and from the bucket.

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table internal.upload_checks drop constraint upload_checks_bucket_known;
alter table internal.upload_checks add constraint upload_checks_bucket_known
  check (bucket_id in ('licenses', 'flight-documents', 'cars'));

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- The public path of a picture stored in the `cars` bucket.
create or replace function internal.car_picture_path(object_name text)
returns text
language sql
immutable
set search_path = ''
as $$
  select '/storage/v1/object/public/cars/' || object_name
$$;

revoke all on function internal.car_picture_path(text) from public, anon, authenticated;

-- Sets a car's pictures, in order (the first is the cover); returns {id, images, updated_at}.
-- Each entry is either one the car already has (a seeded app path, a kept upload) or the public
-- path of an object uploaded to `cars/{car_id}/`. Codes: not_allowed, car_not_found,
-- too_many_pictures (more than 12), duplicate_picture, invalid_picture (neither kind),
-- picture_not_found (no such object), not_an_image (stored as another type),
-- picture_rejected (check-upload refused its bytes).
create or replace function public.staff_set_car_pictures(car_id uuid, pictures text[])
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  c public.cars;
  entry text;
  prefix text := internal.car_picture_path(staff_set_car_pictures.car_id::text || '/');
  object_name text;
  object_type text;
  wanted text[] := coalesce(staff_set_car_pictures.pictures, '{}');
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  select * into c from public.cars x where x.id = staff_set_car_pictures.car_id for update;
  if not found then
    perform internal.fail('car_not_found', coalesce(staff_set_car_pictures.car_id::text, 'car_id'));
  end if;
  if cardinality(wanted) > 12 then
    perform internal.fail('too_many_pictures', 'at most 12');
  end if;
  if (select count(distinct e) from unnest(wanted) e) <> cardinality(wanted) then
    perform internal.fail('duplicate_picture', 'pictures');
  end if;
  foreach entry in array wanted loop
    if entry is null then
      perform internal.fail('invalid_picture', 'null');
    end if;
    continue when entry = any (c.images);
    if left(entry, char_length(prefix)) <> prefix
       or substr(entry, char_length(prefix) + 1) !~ '^[a-z0-9][a-z0-9-]{0,63}\.(webp|jpg|png)$' then
      perform internal.fail('invalid_picture', entry);
    end if;
    object_name := staff_set_car_pictures.car_id::text || '/' || substr(entry, char_length(prefix) + 1);
    select o.metadata ->> 'mimetype' into object_type
      from storage.objects o
     where o.bucket_id = 'cars' and o.name = object_name;
    if not found then
      perform internal.fail('picture_not_found', object_name);
    end if;
    if object_type is null or object_type not in ('image/jpeg', 'image/png', 'image/webp') then
      perform internal.fail('not_an_image', object_name);
    end if;
    if exists (select from internal.upload_checks k
                where k.bucket_id = 'cars' and k.name = object_name and k.verdict = 'rejected') then
      perform internal.fail('picture_rejected', object_name);
    end if;
  end loop;
  update public.cars x set images = wanted where x.id = c.id returning * into c;
  return jsonb_build_object('id', c.id, 'images', to_jsonb(c.images), 'updated_at', c.updated_at);
end
$$;

revoke all on function public.staff_set_car_pictures(uuid, text[]) from public, anon, authenticated;
grant execute on function public.staff_set_car_pictures(uuid, text[]) to authenticated, service_role;

-- `cars.images` changes only through staff_set_car_pictures when the API writes it: a new car
-- starts with none, and a direct update of the column is refused (pictures_through_rpc). The
-- service role and migrations (seed, operations) are not API callers and keep their access.
create or replace function internal.guard_car_pictures()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- staff_set_car_pictures and edge_record_file_check run as their owner, not as the caller.
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  -- Raised here, not through internal.fail: the caller has no usage on the internal schema.
  if (tg_op = 'INSERT' and cardinality(new.images) > 0)
     or (tg_op = 'UPDATE' and new.images is distinct from old.images) then
    raise exception using errcode = 'P0001', message = 'pictures_through_rpc',
      detail = 'staff_set_car_pictures';
  end if;
  return new;
end
$$;

revoke all on function internal.guard_car_pictures() from public, anon, authenticated;

-- check-upload's list of files to check now includes the `cars` bucket.
create or replace function public.edge_unchecked_files(
  bucket text default null, file_name text default null, batch integer default 20
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
   where o.bucket_id in ('licenses', 'flight-documents', 'cars')
     and (edge_unchecked_files.bucket is null or o.bucket_id = edge_unchecked_files.bucket)
     and (edge_unchecked_files.file_name is null or o.name = edge_unchecked_files.file_name)
     and not exists (
       select 1 from internal.upload_checks c where c.bucket_id = o.bucket_id and c.name = o.name)
   order by o.created_at
   limit least(greatest(edge_unchecked_files.batch, 1), 100)
$$;

-- A verdict; a refused booking file refuses its pending booking (as before), a refused car
-- picture leaves every car that shows it (check-upload then removes the object).
create or replace function public.edge_record_file_check(
  bucket text, file_name text, verdict text, detected_type text default null, reason text default null
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  refused jsonb := '[]'::jsonb;
  using_file record;
begin
  insert into internal.upload_checks as c (bucket_id, name, verdict, detected_type, reason)
  values (bucket, file_name, verdict, detected_type, reason)
  on conflict (bucket_id, name) do update
    set verdict = excluded.verdict, detected_type = excluded.detected_type,
        reason = excluded.reason, checked_at = now();
  if verdict = 'rejected' and bucket = 'cars' then
    update public.cars x
       set images = array_remove(x.images, internal.car_picture_path(file_name))
     where internal.car_picture_path(file_name) = any (x.images);
  elsif verdict = 'rejected' then
    for using_file in
      select b.id
        from public.bookings b
       where b.status = 'pending'
         and ((bucket = 'licenses' and b.license_path = file_name)
           or (bucket = 'flight-documents' and b.flight_document_path = file_name))
    loop
      perform internal.expire_lapsed_bookings(only_booking => using_file.id);
    end loop;
    with refused_bookings as (
      update public.bookings b
         set status = 'rejected',
             status_reason = case b.locale
               when 'en' then 'Document refused: the file sent is not a valid PDF, JPEG, PNG or WebP.'
               when 'ar' then 'رُفض المستند: الملف المرسل ليس ملف PDF أو JPEG أو PNG أو WebP صالحًا.'
               else 'Document refusé : le fichier envoyé n''est pas un PDF, JPEG, PNG ou WebP valide.'
             end
       where b.status = 'pending'
         and ((bucket = 'licenses' and b.license_path = file_name)
           or (bucket = 'flight-documents' and b.flight_document_path = file_name))
      returning b.id
    )
    select coalesce(jsonb_agg(r.id), '[]'::jsonb) into refused from refused_bookings r;
  end if;
  return jsonb_build_object('verdict', verdict, 'refused_bookings', refused);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
create trigger cars_guard_pictures
  before insert or update of images on public.cars
  for each row execute function internal.guard_car_pictures();

-- A car picture stored or replaced is checked by its bytes, as booking files are.
create trigger car_pictures_check
  after insert on storage.objects
  for each row when (new.bucket_id = 'cars')
  execute function internal.booking_file_webhook();

create trigger car_pictures_recheck
  after update on storage.objects
  for each row when (new.bucket_id = 'cars' and (old.version is distinct from new.version
    or (old.metadata ->> 'eTag') is distinct from (new.metadata ->> 'eTag')))
  execute function internal.booking_file_webhook();
