-- The platform part of a Supabase project: what a hosted project already has before our
-- migrations run, written from the facts in Supabase's sources (the database image's init scripts
-- and migrations, GoTrue's and storage-api's migrations), and nothing of Kiraa's own.
--
-- One file, two uses:
-- - the local stack applies it on every start (PGlite or DATABASE_URL), connected as the
--   superuser `postgres`;
-- - `npm run test:supabase` applies it as `supabase_admin` on a throwaway PostgreSQL 15 cluster
--   initialised with that superuser, then pushes the migrations with the real Supabase CLI as the
--   non-superuser `postgres` a hosted project gives its owner (scripts/supabase-check.ts).
-- Every statement is idempotent. Runs on PostgreSQL 15 and on PGlite's 18.

-- ---------------------------------------------------------------------------------------------
-- Roles (migrations/db/init-scripts/00000000000000-initial-schema.sql and later migrations)
-- ---------------------------------------------------------------------------------------------
do $$
begin
  -- The platform's superuser; owns the platform schemas.
  if not exists (select from pg_roles where rolname = 'supabase_admin') then
    create role supabase_admin login superuser createdb createrole replication bypassrls;
  end if;
  -- The project owner's role. Not a superuser on a hosted project (10000000000000_demote-postgres).
  if not exists (select from pg_roles where rolname = 'postgres') then
    create role postgres login createdb createrole replication bypassrls;
  end if;
  -- The API roles PostgREST switches to; since 20230529180330 they inherit.
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin bypassrls;
  end if;
  -- PostgREST's login: it can only become the three API roles.
  if not exists (select from pg_roles where rolname = 'authenticator') then
    create role authenticator login noinherit;
  end if;
  -- GoTrue's and storage-api's logins, owners of their schemas' tables.
  if not exists (select from pg_roles where rolname = 'supabase_auth_admin') then
    create role supabase_auth_admin login noinherit createrole noreplication;
  end if;
  if not exists (select from pg_roles where rolname = 'supabase_storage_admin') then
    create role supabase_storage_admin login noinherit createrole noreplication;
  end if;
  if not exists (select from pg_roles where rolname = 'supabase_replication_admin') then
    create role supabase_replication_admin login replication;
  end if;
  if not exists (select from pg_roles where rolname = 'supabase_read_only_user') then
    create role supabase_read_only_user login bypassrls;
  end if;
  if not exists (select from pg_roles where rolname = 'dashboard_user') then
    create role dashboard_user nosuperuser createdb createrole replication;
  end if;
  -- Where the platform's superuser applies this file (the CLI check, a self-hosted image),
  -- `postgres` is demoted as on a hosted project. The local stack connects as `postgres` itself
  -- and keeps it a superuser (a development database).
  -- The owner's database belongs to `postgres` (migrate.sh), so `public` is its schema.
  if current_user <> 'postgres' then
    alter role postgres nosuperuser createdb createrole login replication bypassrls;
    execute format('alter database %I owner to postgres', current_database());
  end if;
end
$$;

alter role anon inherit;
alter role authenticated inherit;
alter role service_role inherit bypassrls;
alter role authenticator noinherit login;
revoke supabase_admin from authenticator;
grant anon, authenticated, service_role to authenticator;
grant anon, authenticated, service_role to postgres;
grant supabase_auth_admin, supabase_storage_admin to postgres;
grant authenticator to supabase_storage_admin;
grant pg_read_all_data to supabase_read_only_user;
grant pg_read_all_data, pg_signal_backend, pg_monitor to postgres;

-- Short timeouts for the API roles (PostgREST applies a role's settings when it switches to it).
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
alter role authenticator set statement_timeout = '8s';
alter role authenticator set lock_timeout = '8s';
alter role postgres set search_path = "$user", public, extensions;
alter role supabase_auth_admin set search_path = auth;
alter role supabase_storage_admin set search_path = storage;
-- A hosted project lets `postgres` set PostgREST's in-database settings on `authenticator`
-- (supautils: `privileged_role_allowed_configs` holds `pgrst.*`, and `authenticator*` is a
-- reserved role whose settings the privileged role may change; supabase/postgres,
-- ansible/files/postgresql_config/supautils.conf.j2). Without supautils, the same right:
grant set on parameter pgrst.db_pre_request to postgres;
-- From PostgreSQL 16 on, CREATEROLE no longer lets `postgres` change another role's settings: it
-- needs the ADMIN option on it. supautils runs the allowed `alter role authenticator set pgrst.*`
-- as the superuser on hosted (PostgreSQL 17 projects); here, the ADMIN option alone, without the
-- role's rights (INHERIT FALSE, SET FALSE).
do $$
begin
  if current_setting('server_version_num')::int >= 160000
     and not (select rolsuper from pg_roles where rolname = 'postgres') then
    execute 'grant authenticator to postgres with admin option, inherit false, set false';
  end if;
end
$$;


-- ---------------------------------------------------------------------------------------------
-- extensions
-- ---------------------------------------------------------------------------------------------
create schema if not exists extensions;
alter schema extensions owner to supabase_admin;
create extension if not exists "uuid-ossp" with schema extensions;
create extension if not exists pgcrypto with schema extensions;
grant usage on schema extensions to postgres, anon, authenticated, service_role;
grant all on schema extensions to postgres, dashboard_user;
grant all on all tables in schema extensions to postgres with grant option;
grant all on all routines in schema extensions to postgres with grant option;
grant all on all sequences in schema extensions to postgres with grant option;
alter default privileges in schema extensions grant all on tables to postgres with grant option;
alter default privileges in schema extensions grant all on routines to postgres with grant option;
alter default privileges in schema extensions grant all on sequences to postgres with grant option;

-- ---------------------------------------------------------------------------------------------
-- public: the API roles get everything and RLS decides; our migrations revoke and grant
-- explicitly, so they behave the same here and on a hosted project.
-- ---------------------------------------------------------------------------------------------
grant usage on schema public to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on sequences to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- auth: owned by supabase_admin, its tables by supabase_auth_admin (GoTrue), with GoTrue's
-- columns after its migrations.
-- ---------------------------------------------------------------------------------------------
create schema if not exists auth;
alter schema auth owner to supabase_admin;
grant usage on schema auth to anon, authenticated, service_role, postgres;
grant all on schema auth to supabase_auth_admin, dashboard_user;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz,
  updated_at timestamptz,
  phone text unique default null,
  phone_confirmed_at timestamptz,
  phone_change text default '',
  phone_change_token varchar(255) default '',
  phone_change_sent_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) default '',
  email_change_confirm_status smallint default 0 check (email_change_confirm_status between 0 and 2),
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  reauthentication_sent_at timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
create unique index if not exists users_email_partial_key on auth.users (email) where is_sso_user = false;
create index if not exists users_instance_id_email_idx on auth.users (instance_id, lower(email));

create table if not exists auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid primary key default gen_random_uuid(),
  unique (provider_id, provider)
);

create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz,
  updated_at timestamptz,
  factor_id uuid,
  aal text,
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet,
  tag text
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);

create table if not exists auth.refresh_tokens (
  instance_id uuid,
  id bigserial primary key,
  token varchar(255) unique,
  user_id varchar(255),
  revoked boolean,
  created_at timestamptz,
  updated_at timestamptz,
  parent varchar(255),
  session_id uuid references auth.sessions (id) on delete cascade
);
create index if not exists refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);

create table if not exists auth.one_time_tokens (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type text not null check (token_type in (
    'confirmation_token', 'reauthentication_token', 'recovery_token',
    'email_change_token_new', 'email_change_token_current', 'phone_change_token')),
  token_hash text not null check (char_length(token_hash) > 0),
  relates_to text not null,
  created_at timestamp not null default now(),
  updated_at timestamp not null default now(),
  unique (user_id, token_type)
);

create table if not exists auth.audit_log_entries (
  instance_id uuid,
  id uuid primary key,
  payload json,
  created_at timestamptz,
  ip_address varchar(64) not null default ''
);

create table if not exists auth.mfa_amr_claims (
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  authentication_method text not null,
  id uuid not null primary key,
  unique (session_id, authentication_method)
);

-- MFA (GoTrue 20221003041349_add_mfa_schema and later): enums as text with the same values.
create table if not exists auth.mfa_factors (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type text not null check (factor_type in ('totp', 'webauthn', 'phone')),
  status text not null check (status in ('unverified', 'verified')),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  secret text,
  phone text,
  last_challenged_at timestamptz unique,
  web_authn_credential jsonb,
  web_authn_aaguid uuid
);
create unique index if not exists mfa_factors_user_friendly_name_unique
  on auth.mfa_factors (friendly_name, user_id) where trim(friendly_name) <> '';
create index if not exists mfa_factors_user_id_idx on auth.mfa_factors (user_id);

create table if not exists auth.mfa_challenges (
  id uuid primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null,
  verified_at timestamptz,
  ip_address inet not null,
  otp_code text,
  web_authn_session_data jsonb
);
create index if not exists mfa_challenge_created_at_idx on auth.mfa_challenges (created_at desc);

-- PKCE (GoTrue's flow_state, migrations 20230322519590 and 20230402418590): one row per
-- code_challenge given to /recover, /otp or /signup; the mail link turns it into `?code=`.
do $$ begin
  create type auth.code_challenge_method as enum ('s256', 'plain');
exception when duplicate_object then null;
end $$;
create table if not exists auth.flow_state (
  id uuid primary key,
  user_id uuid,
  auth_code text not null,
  code_challenge_method auth.code_challenge_method not null,
  code_challenge text not null,
  provider_type text not null,
  provider_access_token text,
  provider_refresh_token text,
  created_at timestamptz,
  updated_at timestamptz,
  authentication_method text not null,
  auth_code_issued_at timestamptz
);
create index if not exists idx_auth_code on auth.flow_state (auth_code);
create index if not exists idx_user_id_auth_method on auth.flow_state (user_id, authentication_method);
create index if not exists flow_state_created_at_idx on auth.flow_state (created_at desc);

create table if not exists auth.instances (
  id uuid primary key,
  uuid uuid,
  raw_base_config text,
  created_at timestamptz,
  updated_at timestamptz
);

create table if not exists auth.schema_migrations (
  version varchar(255) primary key
);

-- The JWT helpers Supabase defines; PostgREST sets request.jwt.claims per transaction.
create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

create or replace function auth.uid() returns uuid
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

grant execute on function auth.jwt(), auth.uid(), auth.role(), auth.email()
  to anon, authenticated, service_role, postgres;

do $$
declare
  t record;
begin
  for t in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'auth' and c.relkind in ('r', 'p')
  loop
    execute format('alter table auth.%I owner to supabase_auth_admin', t.relname);
  end loop;
end
$$;
alter function auth.jwt() owner to supabase_auth_admin;
alter function auth.uid() owner to supabase_auth_admin;
alter function auth.role() owner to supabase_auth_admin;
alter function auth.email() owner to supabase_auth_admin;
grant all on all tables in schema auth to supabase_auth_admin, postgres, dashboard_user;
grant all on all sequences in schema auth to supabase_auth_admin, postgres, dashboard_user;
grant all on all routines in schema auth to postgres, dashboard_user;
alter default privileges for role supabase_auth_admin in schema auth grant all on tables to postgres, dashboard_user;
alter default privileges for role supabase_auth_admin in schema auth grant all on sequences to postgres, dashboard_user;
alter default privileges for role supabase_auth_admin in schema auth grant all on routines to postgres, dashboard_user;

-- ---------------------------------------------------------------------------------------------
-- storage: owned by supabase_admin, its tables and functions by supabase_storage_admin
-- (storage-api), with storage-api's columns.
-- ---------------------------------------------------------------------------------------------
create schema if not exists storage;
alter schema storage owner to supabase_admin;
grant usage on schema storage to postgres, anon, authenticated, service_role;
grant all on schema storage to supabase_storage_admin, postgres, dashboard_user;
alter default privileges in schema storage grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges in schema storage grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges in schema storage grant all on sequences to postgres, anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  owner_id text
);
create unique index if not exists bname on storage.buckets (name);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  owner_id text,
  user_metadata jsonb
);
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

alter table storage.buckets owner to supabase_storage_admin;
alter table storage.objects owner to supabase_storage_admin;
grant all on storage.buckets, storage.objects to anon, authenticated, service_role, postgres;

create or replace function storage.foldername(name text) returns text[]
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1:array_length(_parts, 1) - 1];
end
$$;

create or replace function storage.filename(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

create or replace function storage.extension(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

alter function storage.foldername(text) owner to supabase_storage_admin;
alter function storage.filename(text) owner to supabase_storage_admin;
alter function storage.extension(text) owner to supabase_storage_admin;
grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to anon, authenticated, service_role, postgres;
