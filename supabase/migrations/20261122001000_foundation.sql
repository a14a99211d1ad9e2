-- Foundation: extensions, the private schemas and the helpers every later migration uses.
-- See docs/database.md.

-- ---------------------------------------------------------------------------------------------
-- Extensions (schema `extensions`, as on a Supabase project)
-- ---------------------------------------------------------------------------------------------
create schema if not exists extensions;
create extension if not exists btree_gist with schema extensions;
create extension if not exists pgcrypto with schema extensions;

-- ---------------------------------------------------------------------------------------------
-- Schemas
-- ---------------------------------------------------------------------------------------------
-- `internal`: tables and functions the API roles never see (mail outbox, rate limits, pricing,
-- trigger functions). PostgREST does not expose it and anon/authenticated have no usage on it.
create schema if not exists internal;
revoke all on schema internal from public;

-- `authz`: small SECURITY DEFINER predicates that row-level security policies call (on
-- storage.objects, for instance). The API roles may use the schema to evaluate policies, but
-- PostgREST does not expose it as an API.
create schema if not exists authz;
revoke all on schema authz from public;
grant usage on schema authz to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- Raises a refusal the app maps to a translated message: SQLSTATE P0001, the stable code of
-- docs/decisions.md as the message, what was wrong in `detail`.
create or replace function internal.fail(code text, detail text default null)
returns void
language plpgsql
set search_path = ''
as $$
begin
  raise exception using errcode = 'P0001', message = code, detail = coalesce(detail, '');
end
$$;

-- `updated_at` is the server's: every insert and update sets it, whatever the client sent.
create or replace function internal.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

-- A {fr, en, ar} object of non-empty strings (names, descriptions).
create or replace function internal.is_localized(value jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select jsonb_typeof(value) = 'object'
    and jsonb_typeof(value -> 'fr') = 'string' and length(trim(value ->> 'fr')) > 0
    and jsonb_typeof(value -> 'en') = 'string' and length(trim(value ->> 'en')) > 0
    and jsonb_typeof(value -> 'ar') = 'string' and length(trim(value ->> 'ar')) > 0
$$;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function internal.fail(text, text) from public;
revoke all on function internal.set_updated_at() from public;
revoke all on function internal.is_localized(jsonb) from public;
-- CHECK constraints run with the writer's rights: whoever may write a catalogue row may run it.
grant execute on function internal.is_localized(jsonb) to anon, authenticated, service_role;
