/**
 * PostgREST picks up schema changes by itself, as on Supabase: event triggers (Supabase's
 * `pgrst_ddl_watch` / `pgrst_drop_watch`) send `notify pgrst, 'reload schema'` after DDL, which
 * PostgREST hears on its LISTEN channel. PGlite runs PostgREST without that channel (one shared
 * session), so the triggers also bump a sequence that the stack polls, sending PostgREST SIGUSR1
 * when it moves.
 */
import type { Db } from '../context.ts';

const INSTALL = `
create sequence if not exists extensions.pgrst_schema_version;

create or replace function extensions.pgrst_ddl_watch() returns event_trigger
language plpgsql security definer set search_path = ''
as $$
declare
  cmd record;
begin
  for cmd in select * from pg_event_trigger_ddl_commands() loop
    if cmd.schema_name is distinct from 'pg_temp' then
      perform nextval('extensions.pgrst_schema_version');
      notify pgrst, 'reload schema';
      return;
    end if;
  end loop;
end
$$;

create or replace function extensions.pgrst_drop_watch() returns event_trigger
language plpgsql security definer set search_path = ''
as $$
declare
  obj record;
begin
  for obj in select * from pg_event_trigger_dropped_objects() loop
    if not obj.is_temporary then
      perform nextval('extensions.pgrst_schema_version');
      notify pgrst, 'reload schema';
      return;
    end if;
  end loop;
end
$$;

drop event trigger if exists pgrst_ddl_watch;
create event trigger pgrst_ddl_watch on ddl_command_end
  execute procedure extensions.pgrst_ddl_watch();

drop event trigger if exists pgrst_drop_watch;
create event trigger pgrst_drop_watch on sql_drop
  execute procedure extensions.pgrst_drop_watch();
`;

/** Installs (or refreshes) the event triggers. Idempotent; run after the migrations. */
export async function installSchemaWatch(db: Db): Promise<void> {
  await db.tx((q) => q.query(INSTALL));
}

/** PGlite only: reloads PostgREST's schema cache when the DDL counter moves. */
export function pollSchemaVersion(
  db: Db,
  reload: () => void,
  intervalMs = 500,
): { stop(): Promise<void> } {
  let last: string | null = null;
  let running: Promise<void> = Promise.resolve();
  const read = async () => {
    const { rows } = await db.query<{ version: string }>(
      'select last_value::text as version from extensions.pgrst_schema_version',
    );
    return rows[0]?.version ?? null;
  };
  running = read()
    .then((version) => {
      last = version;
    })
    .catch(() => {});
  const timer = setInterval(() => {
    running = running
      .then(read)
      .then((version) => {
        if (version !== last) {
          last = version;
          reload();
        }
      })
      .catch(() => {});
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running.catch(() => {});
    },
  };
}
