-- What a hosted project refuses its `postgres` role on the platform's schemas, for the Supabase
-- CLI check (scripts/supabase-check.ts), applied by the platform's superuser after bootstrap.sql.
--
-- Since April 2025 hosted projects no longer let `postgres` create or alter tables in `auth`,
-- `storage` and `realtime` (supabase discussion 34270; supabase/cli issue 4114: "altering tables
-- in storage schema is no longer possible", `ALTER TABLE storage.objects ENABLE ROW LEVEL
-- SECURITY` refused), while policies on storage.objects and triggers on auth.users stay allowed.
-- Here `postgres` keeps its membership in supabase_auth_admin and supabase_storage_admin
-- (supabase/postgres migration 20220609081115, which is what lets it create those policies and
-- triggers), and this event trigger refuses the rest, so a migration that would fail on hosted
-- fails the check.
create or replace function extensions.kiraa_refuse_platform_table_changes()
returns event_trigger
language plpgsql
set search_path = ''
as $$
declare
  command record;
begin
  if current_user <> 'postgres' then
    return;
  end if;
  for command in select * from pg_event_trigger_ddl_commands() loop
    if command.schema_name in ('auth', 'storage', 'realtime')
       and command.command_tag in ('CREATE TABLE', 'ALTER TABLE', 'CREATE TABLE AS',
                                   'SELECT INTO', 'CREATE VIEW', 'ALTER VIEW')
       and command.object_type in ('table', 'table column', 'table constraint', 'view') then
      raise exception 'permission denied: a hosted project does not let postgres % %',
        lower(command.command_tag), command.object_identity
        using errcode = '42501';
    end if;
  end loop;
end
$$;

drop event trigger if exists kiraa_refuse_platform_table_changes;
create event trigger kiraa_refuse_platform_table_changes on ddl_command_end
  execute function extensions.kiraa_refuse_platform_table_changes();
