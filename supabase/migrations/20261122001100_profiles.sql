-- Profiles: one row per auth user, created from the sign-up metadata; the app role lives here and
-- is copied into the user's app_metadata so access tokens carry it. See docs/database.md.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  full_name text not null default '',
  phone text,
  age integer,
  address text,
  role text not null default 'user',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.profiles is
  'One row per auth user (created by a trigger from raw_user_meta_data); role decides staff access.';

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table public.profiles
  add constraint profiles_full_name_length check (char_length(full_name) <= 120),
  add constraint profiles_phone_length check (char_length(phone) between 1 and 32),
  add constraint profiles_age_adult check (age >= 18 and age <= 120),
  add constraint profiles_address_length check (char_length(address) between 1 and 300),
  add constraint profiles_role_known check (role in ('user', 'admin'));

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- True when the caller's profile has the admin role. SECURITY DEFINER so that policies can call
-- it without the caller being able to read profiles.
create or replace function public.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select p.role = 'admin' from public.profiles p where p.id = auth.uid()),
    false
  )
$$;

-- The age of the sign-up metadata: null when absent, an integer when it is one (a JSON number or
-- a string of digits); anything else is refused like an under-age one.
create or replace function internal.metadata_age(meta jsonb)
returns integer
language plpgsql
immutable
set search_path = ''
as $$
declare
  v text := nullif(trim(meta ->> 'age'), '');
begin
  if v is null then
    return null;
  end if;
  if v !~ '^[0-9]{1,3}$' then
    raise exception using errcode = '23514', message = 'invalid_age',
      detail = 'age must be a whole number of years';
  end if;
  return v::integer;
end
$$;

-- auth.users insert → profiles row from {name, phone, age, address}.
create or replace function internal.create_profile_for_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
begin
  insert into public.profiles (id, full_name, phone, age, address)
  values (
    new.id,
    coalesce(nullif(trim(meta ->> 'name'), ''), nullif(trim(meta ->> 'full_name'), ''), ''),
    nullif(trim(meta ->> 'phone'), ''),
    internal.metadata_age(meta),
    nullif(trim(meta ->> 'address'), '')
  );
  return null;
end
$$;

-- auth.users metadata update (PUT /user with data) → the same profile fields, when they change.
create or replace function internal.sync_profile_from_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  old_meta jsonb := coalesce(old.raw_user_meta_data, '{}'::jsonb);
begin
  update public.profiles p
     set full_name = case when meta ? 'name' and meta -> 'name' is distinct from old_meta -> 'name'
                          then coalesce(nullif(trim(meta ->> 'name'), ''), p.full_name)
                          else p.full_name end,
         phone = case when meta -> 'phone' is distinct from old_meta -> 'phone'
                      then nullif(trim(meta ->> 'phone'), '') else p.phone end,
         age = case when meta -> 'age' is distinct from old_meta -> 'age'
                    then internal.metadata_age(meta) else p.age end,
         address = case when meta -> 'address' is distinct from old_meta -> 'address'
                        then nullif(trim(meta ->> 'address'), '') else p.address end
   where p.id = new.id;
  return null;
end
$$;

-- auth.users insert/update → raw_app_meta_data.role is always the profile's role ('user' until
-- a profile says otherwise), whatever the auth service writes there.
create or replace function internal.stamp_app_role()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.raw_app_meta_data := coalesce(new.raw_app_meta_data, '{}'::jsonb)
    || jsonb_build_object(
      'role',
      coalesce((select p.role from public.profiles p where p.id = new.id), 'user')
    );
  return new;
end
$$;

-- profiles.role change → touch the auth user so stamp_app_role copies the new role.
create or replace function internal.copy_role_to_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update auth.users u
     set raw_app_meta_data = coalesce(u.raw_app_meta_data, '{}'::jsonb)
       || jsonb_build_object('role', new.role)
   where u.id = new.id;
  return null;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
create trigger profiles_set_updated_at
  before update on public.profiles
  for each row execute function internal.set_updated_at();

create trigger profiles_copy_role_to_user
  after insert or update of role on public.profiles
  for each row execute function internal.copy_role_to_user();

create trigger users_stamp_app_role
  before insert or update on auth.users
  for each row execute function internal.stamp_app_role();

create trigger users_create_profile
  after insert on auth.users
  for each row execute function internal.create_profile_for_user();

create trigger users_sync_profile
  after update of raw_user_meta_data on auth.users
  for each row
  when (old.raw_user_meta_data is distinct from new.raw_user_meta_data)
  execute function internal.sync_profile_from_user();

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
alter table public.profiles enable row level security;

create policy "Users read their own profile and admins read all"
  on public.profiles for select to authenticated
  using (id = (select auth.uid()) or (select public.is_admin()));

create policy "Users update their own profile and admins update all"
  on public.profiles for update to authenticated
  using (id = (select auth.uid()) or (select public.is_admin()))
  with check (id = (select auth.uid()) or (select public.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
-- Rows are created by the auth trigger and removed with the auth user; nobody changes `role`
-- through the API (staff roles are granted with SQL, see docs/database.md).
revoke all on table public.profiles from anon, authenticated;
grant select on table public.profiles to authenticated;
grant update (full_name, phone, age, address) on table public.profiles to authenticated;
grant all on table public.profiles to service_role;

revoke all on function public.is_admin() from public, anon, authenticated;
grant execute on function public.is_admin() to anon, authenticated, service_role;

revoke all on function internal.metadata_age(jsonb) from public;
revoke all on function internal.create_profile_for_user() from public;
revoke all on function internal.sync_profile_from_user() from public;
revoke all on function internal.stamp_app_role() from public;
revoke all on function internal.copy_role_to_user() from public;
