/**
 * The live schema, one file per rule: every function, table, view, type, policy, trigger and
 * schedule that supabase/migrations define, as Postgres itself prints it after the migrations ran
 * (pg_get_functiondef, pg_get_viewdef, pg_policies, pg_get_triggerdef, pg_get_constraintdef…), in
 * supabase/schema/<schema>/<kind>/<name>.sql. `git log` on one file is that rule's history.
 *
 * `npm run test:supabase` compares the committed files with the database it pushed the migrations
 * to (a hosted project's layout) and fails on any difference; `npm run test:supabase -- --update`
 * rewrites them. The workflow is in docs/database.md, "Where a rule lives".
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import type pg from 'pg';

/** The schemas the migrations own; policies and triggers of auth and storage tables count too. */
const OWN = ['public', 'internal', 'authz'];
const HOSTED_TABLES = ['auth', 'storage'];

const HEADER = (what: string) =>
  `-- ${what}: the live definition, generated from supabase/migrations by\n` +
  '-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.\n\n';

/** A file name for an object name: lower case, words joined by '-', nothing a shell must quote. */
export function fileNameOf(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'unnamed'}.sql`;
}

const ident = (name: string) =>
  /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

type Grant = { grantee: string; privilege: string };

/** `grant … to …;` lines, one per grantee, privileges in a stable order. */
function grantLines(target: string, grants: Grant[]): string {
  const byGrantee = new Map<string, string[]>();
  for (const g of grants)
    byGrantee.set(g.grantee, [...(byGrantee.get(g.grantee) ?? []), g.privilege]);
  return [...byGrantee]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([grantee, privileges]) =>
        `grant ${[...privileges].sort().join(', ').toLowerCase()} on ${target} to ${grantee};\n`,
    )
    .join('');
}

const commentLine = (target: string, comment: string | null) =>
  comment ? `comment on ${target} is ${literal(comment)};\n` : '';

/** Privileges held by others than the owner, from an ACL (`null` = the defaults: PUBLIC). */
const GRANTS_SQL = `
  coalesce((select json_agg(json_build_object(
      'grantee', case when a.grantee = 0 then 'public' else (select rolname from pg_roles where oid = a.grantee) end,
      'privilege', a.privilege_type))
    from aclexplode(%ACL%) a where a.grantee <> %OWNER%), '[]'::json)`;
const grantsOf = (acl: string, owner: string) =>
  GRANTS_SQL.replace('%ACL%', acl).replace('%OWNER%', owner);

/** Every file of the mirror, by path relative to supabase/schema. */
export async function liveSchema(client: pg.Client): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const put = (path: string, text: string) => {
    if (files.has(path)) throw new Error(`schema mirror: two objects would share ${path}`);
    files.set(path, text);
  };

  // Functions and procedures (overloads get their argument types in the file name).
  const functions = await client.query<{
    schema: string;
    name: string;
    args: string;
    def: string;
    comment: string | null;
    overloaded: boolean;
    acl_default: boolean;
    grants: Grant[];
  }>(
    `select n.nspname as schema, p.proname as name, pg_get_function_identity_arguments(p.oid) as args,
            pg_get_functiondef(p.oid) as def, obj_description(p.oid, 'pg_proc') as comment,
            count(*) over (partition by n.nspname, p.proname) > 1 as overloaded,
            p.proacl is null as acl_default,
            ${grantsOf('p.proacl', 'p.proowner')} as grants
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = any($1) and p.prokind in ('f', 'p')
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
      order by 1, 2, 3`,
    [OWN],
  );
  for (const f of functions.rows) {
    const target = `function ${f.schema}.${ident(f.name)}(${f.args})`;
    const name = f.overloaded ? `${f.name}(${f.args})` : f.name;
    put(
      join(f.schema, 'functions', fileNameOf(name)),
      HEADER(target) +
        `${f.def.trimEnd()};\n\n` +
        commentLine(target, f.comment) +
        (f.acl_default
          ? '-- privileges: the default (execute to public)\n'
          : grantLines(target, f.grants)),
    );
  }

  // Tables: columns, constraints, indexes, row level security, privileges.
  const tables = await client.query<{
    oid: number;
    schema: string;
    name: string;
    rls: boolean;
    force_rls: boolean;
    comment: string | null;
    grants: Grant[];
  }>(
    `select c.oid, n.nspname as schema, c.relname as name, c.relrowsecurity as rls,
            c.relforcerowsecurity as force_rls, obj_description(c.oid, 'pg_class') as comment,
            ${grantsOf('c.relacl', 'c.relowner')} as grants
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any($1) and c.relkind in ('r', 'p')
        and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')
      order by 2, 3`,
    [OWN],
  );
  for (const t of tables.rows) {
    const qualified = `${t.schema}.${ident(t.name)}`;
    const columns = await client.query<{ line: string }>(
      `select format('  %s %s%s%s%s', quote_ident(a.attname), format_type(a.atttypid, a.atttypmod),
                case when a.attidentity = 'a' then ' generated always as identity'
                     when a.attidentity = 'd' then ' generated by default as identity' else '' end,
                case when a.attgenerated = 's' then ' generated always as (' || pg_get_expr(d.adbin, d.adrelid) || ') stored'
                     when d.adbin is not null and a.attidentity = '' then ' default ' || pg_get_expr(d.adbin, d.adrelid)
                     else '' end,
                case when a.attnotnull then ' not null' else '' end) as line
         from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped
        order by a.attnum`,
      [t.oid],
    );
    const constraints = await client.query<{ line: string }>(
      `select format('  constraint %s %s', quote_ident(conname), pg_get_constraintdef(oid)) as line
         from pg_constraint where conrelid = $1 order by contype, conname`,
      [t.oid],
    );
    const indexes = await client.query<{ def: string }>(
      `select pg_get_indexdef(i.indexrelid) as def from pg_index i
        where i.indrelid = $1
          and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid and c.conrelid = $1)
        order by 1`,
      [t.oid],
    );
    const target = `table ${qualified}`;
    put(
      join(t.schema, 'tables', fileNameOf(t.name)),
      HEADER(target) +
        `create table ${qualified} (\n${[...columns.rows, ...constraints.rows].map((r) => r.line).join(',\n')}\n);\n` +
        indexes.rows.map((r) => `${r.def};\n`).join('') +
        (t.rls ? `alter table ${qualified} enable row level security;\n` : '') +
        (t.force_rls ? `alter table ${qualified} force row level security;\n` : '') +
        commentLine(target, t.comment) +
        grantLines(target, t.grants),
    );
  }

  // Views.
  const views = await client.query<{
    schema: string;
    name: string;
    options: string[] | null;
    def: string;
    comment: string | null;
    grants: Grant[];
  }>(
    `select n.nspname as schema, c.relname as name, c.reloptions as options,
            pg_get_viewdef(c.oid, true) as def, obj_description(c.oid, 'pg_class') as comment,
            ${grantsOf('c.relacl', 'c.relowner')} as grants
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any($1) and c.relkind = 'v'
      order by 1, 2`,
    [OWN],
  );
  for (const v of views.rows) {
    const qualified = `${v.schema}.${ident(v.name)}`;
    const target = `view ${qualified}`;
    const options = v.options?.length ? ` with (${v.options.join(', ')})` : '';
    put(
      join(v.schema, 'views', fileNameOf(v.name)),
      HEADER(target) +
        `create or replace view ${qualified}${options} as\n${v.def.trimEnd()}\n\n` +
        commentLine(target, v.comment) +
        grantLines(`table ${qualified}`, v.grants),
    );
  }

  // Types: enums and domains.
  const types = await client.query<{
    schema: string;
    name: string;
    def: string;
    comment: string | null;
  }>(
    `select n.nspname as schema, t.typname as name,
            case t.typtype
              when 'e' then format('create type %I.%I as enum (%s);', n.nspname, t.typname,
                (select string_agg(quote_literal(e.enumlabel), ', ' order by e.enumsortorder)
                   from pg_enum e where e.enumtypid = t.oid))
              else format('create domain %I.%I as %s%s%s;', n.nspname, t.typname,
                format_type(t.typbasetype, t.typtypmod),
                case when t.typnotnull then ' not null' else '' end,
                coalesce((select string_agg(' constraint ' || quote_ident(c.conname) || ' ' || pg_get_constraintdef(c.oid), '' order by c.conname)
                            from pg_constraint c where c.contypid = t.oid), ''))
            end as def,
            obj_description(t.oid, 'pg_type') as comment
       from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where n.nspname = any($1) and t.typtype in ('e', 'd')
        and not exists (select 1 from pg_depend d where d.objid = t.oid and d.deptype = 'e')
      order by 1, 2`,
    [OWN],
  );
  for (const t of types.rows) {
    const target = `type ${t.schema}.${ident(t.name)}`;
    put(
      join(t.schema, 'types', fileNameOf(t.name)),
      HEADER(target) + `${t.def}\n` + commentLine(target, t.comment),
    );
  }

  // Policies, on the migrations' tables and on auth's and storage's.
  const policies = await client.query<{
    schema: string;
    table: string;
    name: string;
    permissive: string;
    roles: string[];
    cmd: string;
    qual: string | null;
    with_check: string | null;
  }>(
    `select schemaname as schema, tablename as table, policyname as name, permissive,
            roles::text[] as roles, cmd, qual, with_check
       from pg_policies where schemaname = any($1) order by 1, 2, 3`,
    [[...OWN, ...HOSTED_TABLES]],
  );
  for (const p of policies.rows) {
    const qualified = `${p.schema}.${ident(p.table)}`;
    const lines = [
      `create policy ${ident(p.name)} on ${qualified}`,
      `  as ${p.permissive.toLowerCase()} for ${p.cmd.toLowerCase()} to ${p.roles.join(', ')}`,
      ...(p.qual ? [`  using (${p.qual})`] : []),
      ...(p.with_check ? [`  with check (${p.with_check})`] : []),
    ];
    put(
      join(p.schema, 'policies', p.table, fileNameOf(p.name)),
      HEADER(`policy "${p.name}" on ${qualified}`) + `${lines.join('\n')};\n`,
    );
  }

  // Triggers whose function the migrations wrote (on any table, auth.users included).
  const triggers = await client.query<{ schema: string; table: string; name: string; def: string }>(
    `select n.nspname as schema, c.relname as table, t.tgname as name, pg_get_triggerdef(t.oid, true) as def
       from pg_trigger t
       join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
       join pg_proc p on p.oid = t.tgfoid join pg_namespace pn on pn.oid = p.pronamespace
      where not t.tgisinternal and pn.nspname = any($1)
      order by 1, 2, 3`,
    [OWN],
  );
  for (const t of triggers.rows) {
    put(
      join(t.schema, 'triggers', t.table, fileNameOf(t.name)),
      HEADER(`trigger ${t.name} on ${t.schema}.${ident(t.table)}`) + `${t.def};\n`,
    );
  }

  // Schedules (pg_cron's jobs).
  const jobs = await client.query<{ name: string; schedule: string; command: string }>(
    `select jobname as name, schedule, command from cron.job order by jobname`,
  );
  for (const j of jobs.rows) {
    put(
      join('cron', 'jobs', fileNameOf(j.name)),
      HEADER(`schedule ${j.name}`) +
        `select cron.schedule(${literal(j.name)}, ${literal(j.schedule)}, $job$${j.command}$job$);\n`,
    );
  }
  return files;
}

function committedFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.sql'))
        files.set(relative(root, path), readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return files;
}

/** What differs between the committed mirror in `root` and `live`: one line per file. */
export function mirrorDifferences(root: string, live: Map<string, string>): string[] {
  const committed = committedFiles(root);
  const lines: string[] = [];
  for (const [path, text] of live) {
    const old = committed.get(path);
    if (old === undefined) lines.push(`missing: ${path}`);
    else if (old !== text) lines.push(`differs: ${path}`);
  }
  for (const path of committed.keys()) if (!live.has(path)) lines.push(`not live: ${path}`);
  return lines.sort();
}

/** Replaces the mirror in `root` with `live`. */
export function writeMirror(root: string, live: Map<string, string>): void {
  rmSync(root, { recursive: true, force: true });
  for (const [path, text] of live) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}
