-- The platform extensions a hosted Supabase project has and PGlite (and a plain PostgreSQL) has
-- not, as the local stack emulates them: the SQL API of pg_cron (schedules), pg_net (HTTP calls
-- from SQL, sent after commit) and Supabase Vault (secrets), each only where the real one is
-- absent. The stack's workers do what the extensions' background workers do
-- (supabase/local/workers/cron.ts, supabase/local/gateway/net.ts). Migrations call the same functions on both.
-- Applied after bootstrap.sql on every start; idempotent.

do $standins$
begin
  -- ---------------------------------------------------------------------------------------------
  -- pg_cron (cron.schedule, cron.unschedule, cron.job, cron.job_run_details)
  -- ---------------------------------------------------------------------------------------------
  if not exists (select from pg_extension where extname = 'pg_cron') then
    create schema if not exists cron;
    create table if not exists cron.job (
      jobid bigserial primary key,
      schedule text not null,
      command text not null,
      nodename text not null default 'localhost',
      nodeport integer not null default 5432,
      database text not null default current_database(),
      username text not null default current_user,
      active boolean not null default true,
      jobname text unique
    );
    create table if not exists cron.job_run_details (
      jobid bigint,
      runid bigserial primary key,
      job_pid integer,
      database text,
      username text,
      command text,
      status text,
      return_message text,
      start_time timestamptz,
      end_time timestamptz
    );

    -- pg_cron's syntax: five cron fields, `N seconds` (1-59), or @yearly… @hourly, @reboot.
    create or replace function cron.valid_schedule(schedule text) returns boolean
    language sql immutable set search_path = '' as $$
      select schedule ~ '^\s*[1-5]?[0-9]\s+seconds?\s*$'
        or schedule ~ '^\s*@(yearly|annually|monthly|weekly|daily|midnight|hourly|reboot)\s*$'
        or schedule ~ '^\s*[0-9*/,\-]+(\s+[0-9*/,\-]+){4}\s*$'
    $$;

    create or replace function cron.schedule(job_name text, schedule text, command text)
    returns bigint
    language plpgsql set search_path = '' as $$
    declare
      id bigint;
    begin
      if not cron.valid_schedule(schedule) then
        raise exception 'invalid schedule: %', schedule;
      end if;
      insert into cron.job (jobname, schedule, command, username)
      values (job_name, schedule, command, current_user)
      on conflict (jobname) do update
        set schedule = excluded.schedule, command = excluded.command,
            username = excluded.username, active = true
      returning jobid into id;
      return id;
    end
    $$;

    create or replace function cron.schedule(schedule text, command text)
    returns bigint
    language plpgsql set search_path = '' as $$
    declare
      id bigint;
    begin
      if not cron.valid_schedule(schedule) then
        raise exception 'invalid schedule: %', schedule;
      end if;
      insert into cron.job (schedule, command, username)
      values (schedule, command, current_user)
      returning jobid into id;
      return id;
    end
    $$;

    create or replace function cron.unschedule(job_name text) returns boolean
    language plpgsql set search_path = '' as $$
    begin
      delete from cron.job where jobname = job_name;
      if not found then
        raise exception 'could not find valid entry for job ''%''', job_name;
      end if;
      return true;
    end
    $$;

    create or replace function cron.unschedule(job_id bigint) returns boolean
    language plpgsql set search_path = '' as $$
    begin
      delete from cron.job where jobid = job_id;
      if not found then
        raise exception 'could not find valid entry for job %', job_id;
      end if;
      return true;
    end
    $$;

    revoke all on schema cron from public;
    revoke all on all tables in schema cron from public;
    revoke all on all functions in schema cron from public;
    grant usage on schema cron to postgres;
    grant all on all tables in schema cron to postgres;
    grant all on all sequences in schema cron to postgres;
    grant execute on all functions in schema cron to postgres;
  end if;

  -- ---------------------------------------------------------------------------------------------
  -- pg_net (net.http_post, net.http_get, net.http_request_queue, net._http_response)
  -- ---------------------------------------------------------------------------------------------
  if not exists (select from pg_extension where extname = 'pg_net') then
    create schema if not exists net;
    create table if not exists net.http_request_queue (
      id bigserial primary key,
      method text not null,
      url text not null,
      headers jsonb not null,
      body bytea,
      timeout_milliseconds integer not null
    );
    create table if not exists net._http_response (
      id bigint,
      status_code integer,
      content_type text,
      headers jsonb,
      content text,
      timed_out boolean,
      error_msg text,
      created timestamptz not null default now()
    );
    create index if not exists _http_response_created_idx on net._http_response (created);

    -- PL/pgSQL, as pg_net's own http_post and http_get are: a SQL function with a SET clause is
    -- planned again in every transaction (docs/database.md, "Schemas"), which the real extension
    -- does not pay, and every booking's mail webhook calls these.
    create or replace function net.with_params(url text, params jsonb) returns text
    language plpgsql immutable set search_path = '' as $$
    begin
      if params is null or params = '{}'::jsonb then
        return url;
      end if;
      return url || case when position('?' in url) > 0 then '&' else '?' end || (
        select string_agg(e.key || '=' || e.value, '&') from jsonb_each_text(params) e
      );
    end
    $$;

    create or replace function net.http_post(
      url text,
      body jsonb default '{}'::jsonb,
      params jsonb default '{}'::jsonb,
      headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
      timeout_milliseconds integer default 5000
    ) returns bigint
    language plpgsql volatile set search_path = '' as $$
    declare
      request_id bigint;
    begin
      insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
      values ('POST', net.with_params(http_post.url, http_post.params),
        coalesce(http_post.headers, '{}'::jsonb),
        convert_to(coalesce(http_post.body, '{}'::jsonb)::text, 'UTF8'),
        http_post.timeout_milliseconds)
      returning id into request_id;
      return request_id;
    end
    $$;

    create or replace function net.http_get(
      url text,
      params jsonb default '{}'::jsonb,
      headers jsonb default '{}'::jsonb,
      timeout_milliseconds integer default 5000
    ) returns bigint
    language plpgsql volatile set search_path = '' as $$
    declare
      request_id bigint;
    begin
      insert into net.http_request_queue (method, url, headers, timeout_milliseconds)
      values ('GET', net.with_params(http_get.url, http_get.params),
        coalesce(http_get.headers, '{}'::jsonb), http_get.timeout_milliseconds)
      returning id into request_id;
      return request_id;
    end
    $$;

    revoke all on schema net from public;
    revoke all on all tables in schema net from public;
    revoke all on all functions in schema net from public;
    grant usage on schema net to postgres, service_role;
    grant all on all tables in schema net to postgres, service_role;
    grant all on all sequences in schema net to postgres, service_role;
    grant execute on all functions in schema net to postgres, service_role;
  end if;

  -- ---------------------------------------------------------------------------------------------
  -- Supabase Vault (vault.create_secret, vault.update_secret, vault.decrypted_secrets). Locally
  -- the secrets are the development values and are stored as they are; Vault encrypts them.
  -- ---------------------------------------------------------------------------------------------
  if not exists (select from pg_extension where extname = 'supabase_vault') then
    create schema if not exists vault;
    create table if not exists vault.secrets (
      id uuid primary key default gen_random_uuid(),
      name text unique,
      description text not null default '',
      secret text not null,
      key_id uuid,
      nonce bytea,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create or replace view vault.decrypted_secrets as
      select id, name, description, secret, secret as decrypted_secret, key_id, nonce,
             created_at, updated_at
        from vault.secrets;

    create or replace function vault.create_secret(
      new_secret text,
      new_name text default null,
      new_description text default '',
      new_key_id uuid default null
    ) returns uuid
    language sql volatile set search_path = '' as $$
      insert into vault.secrets (secret, name, description, key_id)
      values (new_secret, new_name, coalesce(new_description, ''), new_key_id)
      returning id
    $$;

    create or replace function vault.update_secret(
      secret_id uuid,
      new_secret text default null,
      new_name text default null,
      new_description text default null,
      new_key_id uuid default null
    ) returns void
    language sql volatile set search_path = '' as $$
      update vault.secrets
         set secret = coalesce(new_secret, secret),
             name = coalesce(new_name, name),
             description = coalesce(new_description, description),
             key_id = coalesce(new_key_id, key_id),
             updated_at = now()
       where id = secret_id
    $$;

    revoke all on schema vault from public;
    revoke all on all tables in schema vault from public;
    revoke all on all functions in schema vault from public;
    grant usage on schema vault to postgres, service_role;
    grant all on all tables in schema vault to postgres, service_role;
    grant execute on all functions in schema vault to postgres, service_role;
  end if;
end
$standins$;
