-- table internal.password_failures: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.password_failures (
  id bigint generated always as identity not null,
  user_id uuid not null,
  failed_at timestamp with time zone default now() not null,
  constraint password_failures_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint password_failures_pkey PRIMARY KEY (id)
);
CREATE INDEX password_failures_user_id_failed_at_idx ON internal.password_failures USING btree (user_id, failed_at);
alter table internal.password_failures enable row level security;
comment on table internal.password_failures is 'Failed password sign-ins per account (hook_password_verification_attempt), kept 15 minutes.';
grant delete, insert, select on table internal.password_failures to supabase_auth_admin;
