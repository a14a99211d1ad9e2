-- Auth hooks (supabase/config.toml [auth.hook.*]): Postgres functions GoTrue calls, on a hosted
-- project as locally, as `supabase_auth_admin`: `select public.<hook>($1::jsonb)`.
-- - hook_before_user_created: sign-up profile data is checked before the user exists, so bad data
--   is a 4xx naming the field and the reason (a failing trigger on auth.users would be GoTrue's
--   500 "Database error saving new user"). The profile trigger stays as the last line of defence.
-- - hook_password_verification_attempt: failed passwords are counted per account; 10 within
--   15 minutes refuse further attempts, the right password included, until the window passes.
-- See docs/auth.md ("Hooks").

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
create table internal.password_failures (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  failed_at timestamptz not null default now()
);

comment on table internal.password_failures is
  'Failed password sign-ins per account (hook_password_verification_attempt), kept 15 minutes.';

create index password_failures_user_id_failed_at_idx
  on internal.password_failures (user_id, failed_at);

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- What is wrong with one profile field of the sign-up metadata, or null: `required`, `too_long`,
-- `control_characters`, `format` (phone, age), `under_age`, `too_old`.
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
  if v ~ '[\u0001-\u001f\u007f-\u009f]' then
    return 'control_characters';
  end if;
  case field
    when 'name' then
      if char_length(v) > 100 then return 'too_long'; end if;
    when 'address' then
      if char_length(v) > 200 then return 'too_long'; end if;
    when 'phone' then
      if v !~ '^\+[1-9][0-9]{7,14}$' then return 'format'; end if;
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

-- Before User Created: `{metadata, user}` → `{}` to go on, or GoTrue's error object. The message
-- is `<field>: <reason>` (e.g. `age: under_age`), which the app translates.
create or replace function public.hook_before_user_created(event jsonb)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  meta jsonb := coalesce(event -> 'user' -> 'user_metadata', '{}'::jsonb);
  field text;
  problem text;
begin
  if jsonb_typeof(meta) <> 'object' then
    meta := '{}'::jsonb;
  end if;
  foreach field in array array['name', 'phone', 'age', 'address', 'locale'] loop
    problem := internal.profile_field_problem(meta, field);
    if problem is not null then
      return jsonb_build_object(
        'error', jsonb_build_object('http_code', 422, 'message', field || ': ' || problem)
      );
    end if;
  end loop;
  return '{}'::jsonb;
end
$$;

-- Password Verification Attempt: `{metadata, user_id, valid}` → `{decision, message}`.
create or replace function public.hook_password_verification_attempt(event jsonb)
returns jsonb
language plpgsql
volatile
set search_path = ''
as $$
declare
  account uuid := (event ->> 'user_id')::uuid;
  window_length constant interval := interval '15 minutes';
  max_failures constant integer := 10;
  failures integer;
begin
  delete from internal.password_failures f
   where f.user_id = account and f.failed_at < now() - window_length;
  select count(*) into failures from internal.password_failures f where f.user_id = account;
  if failures >= max_failures then
    return jsonb_build_object(
      'decision', 'reject',
      'message', 'Too many failed sign-ins for this account: try again in 15 minutes.',
      'should_logout_user', false
    );
  end if;
  if coalesce((event ->> 'valid')::boolean, false) then
    delete from internal.password_failures f where f.user_id = account;
  else
    insert into internal.password_failures (user_id) values (account);
  end if;
  return jsonb_build_object('decision', 'continue');
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
alter table internal.password_failures enable row level security;

create policy "The auth service counts failed passwords"
  on internal.password_failures for all to supabase_auth_admin
  using (true)
  with check (true);

-- ---------------------------------------------------------------------------------------------
-- Grants: only GoTrue (supabase_auth_admin) calls the hooks; the API roles never can.
-- ---------------------------------------------------------------------------------------------
grant usage on schema internal to supabase_auth_admin;
revoke all on table internal.password_failures from public, anon, authenticated, service_role;
grant select, insert, delete on table internal.password_failures to supabase_auth_admin;

revoke all on function internal.profile_field_problem(jsonb, text) from public;
grant execute on function internal.profile_field_problem(jsonb, text) to supabase_auth_admin;

revoke all on function public.hook_before_user_created(jsonb)
  from public, anon, authenticated, service_role;
revoke all on function public.hook_password_verification_attempt(jsonb)
  from public, anon, authenticated, service_role;
grant execute on function public.hook_before_user_created(jsonb) to supabase_auth_admin;
grant execute on function public.hook_password_verification_attempt(jsonb) to supabase_auth_admin;
