-- Profile text is checked wherever it is written (docs/decisions.md, "Accounts"). A customer's
-- PATCH of public.profiles stored line breaks, a right-to-left override (U+202E) and anything
-- else, and the name reaches the staff board and the authors of reviews. Now the same rule as the
-- sign-up hook, for every writer: no control, line-breaking, direction or invisible characters in
-- a name or an address, a phone number read and stored one way (internal.normalize_phone).
-- Direct writes are refused with a coded error; a change of the account's metadata (PUT
-- /auth/v1/user, which GoTrue answers 500 for any database error) keeps the profile's value
-- instead of failing.

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- Characters a name or an address may not hold: control characters, line and paragraph
-- separators, direction marks, overrides and isolates, and invisible ones.
create or replace function internal.has_hidden_characters(value text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(value ~ '[\x01-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]', false)
$$;

-- One field of the sign-up metadata checked (the Before User Created hook, the profile's own
-- checks): null when fine, else `required`, `too_long`, `control_characters`, `format` (phone,
-- age), `under_age` or `too_old`.
create or replace function internal.profile_field_problem(meta jsonb, field text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  raw jsonb := meta -> field;
  v text;
begin
  if raw is null or jsonb_typeof(raw) = 'null' then
    return case when field = 'locale' then null else 'required' end;
  end if;
  if jsonb_typeof(raw) not in ('string', 'number') then
    return 'format';
  end if;
  v := trim(meta ->> field);
  if v = '' then
    return case when field = 'locale' then 'format' else 'required' end;
  end if;
  if internal.has_hidden_characters(v) then
    return 'control_characters';
  end if;
  case field
    when 'name' then
      if char_length(v) > 100 then return 'too_long'; end if;
    when 'address' then
      if char_length(v) > 200 then return 'too_long'; end if;
    when 'phone' then
      if internal.normalize_phone(v) is null then return 'format'; end if;
    when 'age' then
      if v !~ '^[0-9]{1,3}$' then return 'format'; end if;
      if v::integer < 18 then return 'under_age'; end if;
      if v::integer > 120 then return 'too_old'; end if;
    when 'locale' then
      if v not in ('fr', 'en', 'ar') then return 'format'; end if;
    else
      null;
  end case;
  return null;
end
$$;

-- The value of one profile field of the account's metadata, or `fallback` when it is absent or
-- does not pass internal.profile_field_problem (the phone normalised).
create or replace function internal.profile_value(meta jsonb, field text, fallback text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when internal.profile_field_problem(meta, field) is not null then fallback
    when field = 'phone' then internal.normalize_phone(meta ->> field)
    else trim(meta ->> field)
  end
$$;

-- auth.users insert → profiles row from {name, phone, age, address}, the phone read the one way;
-- the profile's own checks (internal.check_profile_text) refuse what the hook would have (a user
-- written past it is refused, the last line of defence).
create or replace function internal.create_profile_for_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  phone text;
begin
  if jsonb_typeof(meta) <> 'object' then
    meta := '{}'::jsonb;
  end if;
  phone := nullif(trim(meta ->> 'phone'), '');
  insert into public.profiles (id, full_name, phone, age, address)
  values (
    new.id,
    coalesce(nullif(trim(meta ->> 'name'), ''), nullif(trim(meta ->> 'full_name'), ''), ''),
    coalesce(internal.normalize_phone(phone), phone),
    internal.metadata_age(meta),
    nullif(trim(meta ->> 'address'), '')
  );
  return null;
end
$$;

-- auth.users metadata update (PUT /user with data) → the same profile fields, when they change
-- and pass the checks; a field that does not keeps its value (GoTrue would answer 500).
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
  if jsonb_typeof(meta) <> 'object' then
    return null;
  end if;
  update public.profiles p
     set full_name = case when meta -> 'name' is distinct from old_meta -> 'name'
                          then internal.profile_value(meta, 'name', p.full_name)
                          else p.full_name end,
         phone = case when meta -> 'phone' is distinct from old_meta -> 'phone'
                      then internal.profile_value(meta, 'phone', p.phone) else p.phone end,
         age = case when meta -> 'age' is distinct from old_meta -> 'age'
                    then internal.profile_value(meta, 'age', p.age::text)::integer else p.age end,
         address = case when meta -> 'address' is distinct from old_meta -> 'address'
                        then internal.profile_value(meta, 'address', p.address) else p.address end
   where p.id = new.id;
  return null;
end
$$;

-- A profile written directly (a customer's PATCH, staff, the service role): refused with a coded
-- error when a field does not pass the sign-up checks — invalid_name, invalid_phone,
-- invalid_address (hidden characters, empty or too long), invalid_age — and the phone stored
-- normalised.
create or replace function internal.check_profile_text()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  problem text;
begin
  if new.full_name <> '' then
    problem := internal.profile_field_problem(jsonb_build_object('name', new.full_name), 'name');
    if problem is not null then
      perform internal.fail('invalid_name', 'full_name: ' || problem);
    end if;
    new.full_name := trim(new.full_name);
  end if;
  if new.phone is not null then
    if internal.normalize_phone(new.phone) is null then
      perform internal.fail('invalid_phone', 'phone: format');
    end if;
    new.phone := internal.normalize_phone(new.phone);
  end if;
  if new.address is not null then
    problem := internal.profile_field_problem(jsonb_build_object('address', new.address), 'address');
    if problem is not null then
      perform internal.fail('invalid_address', 'address: ' || problem);
    end if;
    new.address := trim(new.address);
  end if;
  if new.age is not null and (new.age < 18 or new.age > 120) then
    perform internal.fail('invalid_age', 'age: ' || case when new.age < 18 then 'under_age' else 'too_old' end);
  end if;
  return new;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Data
-- ---------------------------------------------------------------------------------------------
-- Profiles already written keep their text, cleaned the way the check now asks for.
update public.profiles p
   set full_name = trim(regexp_replace(p.full_name,
         '[\x01-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]+', ' ', 'g')),
       address = nullif(trim(regexp_replace(p.address,
         '[\x01-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]+', ' ', 'g')), ''),
       phone = coalesce(internal.normalize_phone(p.phone), p.phone)
 where internal.has_hidden_characters(p.full_name) or internal.has_hidden_characters(p.address)
    or p.phone is distinct from coalesce(internal.normalize_phone(p.phone), p.phone);

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
create trigger profiles_check_text
  before insert or update of full_name, phone, address, age on public.profiles
  for each row
  execute function internal.check_profile_text();

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function internal.has_hidden_characters(text) from public;
revoke all on function internal.profile_value(jsonb, text, text) from public;
revoke all on function internal.check_profile_text() from public;
-- The hook and the triggers run as GoTrue's role or the writer's: they call these.
grant execute on function internal.has_hidden_characters(text) to supabase_auth_admin;
grant execute on function internal.normalize_phone(text) to supabase_auth_admin;
