-- A function that writes runs only for POST (docs/decisions.md, "Functions that write need
-- POST"). PostgREST runs GET and HEAD in a read-only transaction, so a function that counts
-- failed attempts (the guest lookup, the confirmation code) could not record a miss on GET, while
-- a hit still answered: an unlimited guessing oracle on hosted Supabase, where nothing stands in
-- front of PostgREST. PostgREST's pre-request hook refuses GET and HEAD on every VOLATILE
-- function of the exposed schema before it runs, whatever its name: one rule, future RPCs
-- included, the same locally and on hosted (the hook is a role setting PostgREST reads).

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- Runs before every PostgREST request (pgrst.db_pre_request). Refuses with HTTP 405 and
-- `Allow: POST` (PostgREST's SQLSTATE PGRST error: status and headers), message
-- `method_not_allowed`, a GET or HEAD on
-- /rpc/<name> when a function of that name in `public` is VOLATILE (it may write). Reads only
-- the catalogue, and only for GET/HEAD on /rpc/.
create or replace function authz.check_request()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  method text := current_setting('request.method', true);
  path text := current_setting('request.path', true);
  rpc_name text;
begin
  if method not in ('GET', 'HEAD') or path is null or path not like '/rpc/%' then
    return;
  end if;
  rpc_name := split_part(substr(path, 6), '/', 1);
  if exists (
    select from pg_catalog.pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and p.proname = rpc_name
       and p.provolatile = 'v'
  ) then
    raise sqlstate 'PGRST' using
      message = json_build_object('code', 'PT405', 'message', 'method_not_allowed',
        'details', rpc_name || ' changes data: call it with POST')::text,
      detail = '{"status": 405, "headers": {"Allow": "POST"}}';
  end if;
end
$$;

-- Inside a function that counts attempts: refuses to run in a read-only transaction (a GET that
-- reached it some other way), so a miss is always counted or nothing runs.
create or replace function internal.require_writable()
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if current_setting('transaction_read_only') = 'on' then
    raise exception using errcode = 'PT405', message = 'method_not_allowed',
      detail = 'this function records attempts: call it with POST';
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Settings
-- ---------------------------------------------------------------------------------------------
-- PostgREST reads its in-database configuration from the role it logs in as (db-config, on by
-- default, as on hosted Supabase) at start and on `NOTIFY pgrst, 'reload config'`.
alter role authenticator set pgrst.db_pre_request = 'authz.check_request';
notify pgrst, 'reload config';

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function authz.check_request() from public;
-- PostgREST calls it as the request's role.
grant execute on function authz.check_request() to anon, authenticated, service_role;
revoke all on function internal.require_writable() from public;
