-- Storage: the buckets and who may read and write their objects (docs/decisions.md, Guests).
-- Booking files live at `{booking_id}/{file}` in `licenses` and `flight-documents`; car pictures
-- in the public `cars` bucket. The storage API evaluates these policies as the caller.

-- ---------------------------------------------------------------------------------------------
-- Tables (rows)
-- ---------------------------------------------------------------------------------------------
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('licenses', 'licenses', false, 5242880,
    array['application/pdf', 'image/jpeg', 'image/png', 'image/webp']),
  ('flight-documents', 'flight-documents', false, 5242880,
    array['application/pdf', 'image/jpeg', 'image/png', 'image/webp']),
  ('cars', 'cars', true, 5242880, array['image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do update
  set name = excluded.name,
      public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- The booking id of a booking file's path `{booking_id}/{file}`; null for any other shape.
create or replace function authz.booking_folder(name text)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select case
    when name ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[^/]+$'
      then split_part(name, '/', 1)::uuid
  end
$$;

-- True when the caller is the customer of the booking whose folder holds `name`.
create or replace function authz.owns_booking_folder(name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.bookings b
     where b.id = authz.booking_folder(name)
       and b.user_id = auth.uid()
  )
$$;

-- True when the caller may add `name`: a well-formed booking path whose booking does not exist
-- yet (guests and customers upload before create_booking), or the caller's own pending booking.
create or replace function authz.may_upload_booking_file(name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select authz.booking_folder(name) is not null
    and not exists (
      select 1 from public.bookings b
       where b.id = authz.booking_folder(name)
         and (auth.uid() is null or b.user_id is distinct from auth.uid() or b.status <> 'pending')
    )
$$;

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
-- Booking files: nobody lists or reads them but the booking's customer and admins; guests never
-- read (not even what they uploaded); nobody but admins overwrites or deletes.
create policy "Booking customers and admins read booking files"
  on storage.objects for select to authenticated
  using (
    bucket_id in ('licenses', 'flight-documents')
    and ((select public.is_admin()) or authz.owns_booking_folder(name))
  );

create policy "Guests upload files for a booking not made yet"
  on storage.objects for insert to anon
  with check (
    bucket_id in ('licenses', 'flight-documents')
    and authz.may_upload_booking_file(name)
  );

create policy "Customers upload files for a new or pending booking of theirs"
  on storage.objects for insert to authenticated
  with check (
    bucket_id in ('licenses', 'flight-documents')
    and ((select public.is_admin()) or authz.may_upload_booking_file(name))
  );

create policy "Admins replace booking files"
  on storage.objects for update to authenticated
  using (bucket_id in ('licenses', 'flight-documents') and (select public.is_admin()))
  with check (bucket_id in ('licenses', 'flight-documents') and (select public.is_admin()));

create policy "Admins delete booking files"
  on storage.objects for delete to authenticated
  using (bucket_id in ('licenses', 'flight-documents') and (select public.is_admin()));

-- Car pictures: public; staff manage them.
create policy "Everyone reads car pictures"
  on storage.objects for select to anon, authenticated
  using (bucket_id = 'cars');

create policy "Admins add car pictures"
  on storage.objects for insert to authenticated
  with check (bucket_id = 'cars' and (select public.is_admin()));

create policy "Admins replace car pictures"
  on storage.objects for update to authenticated
  using (bucket_id = 'cars' and (select public.is_admin()))
  with check (bucket_id = 'cars' and (select public.is_admin()));

create policy "Admins delete car pictures"
  on storage.objects for delete to authenticated
  using (bucket_id = 'cars' and (select public.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function authz.booking_folder(text) from public;
revoke all on function authz.owns_booking_folder(text) from public;
revoke all on function authz.may_upload_booking_file(text) from public;
grant execute on function authz.booking_folder(text) to anon, authenticated, service_role;
grant execute on function authz.owns_booking_folder(text) to anon, authenticated, service_role;
grant execute on function authz.may_upload_booking_file(text) to anon, authenticated, service_role;
