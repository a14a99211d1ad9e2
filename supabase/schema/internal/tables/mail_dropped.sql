-- table internal.mail_dropped: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.mail_dropped (
  id bigint generated always as identity not null,
  to_key text not null,
  kind text not null,
  booking_id uuid,
  reason text not null,
  created_at timestamp with time zone default now() not null,
  constraint mail_dropped_reason_known CHECK ((reason = ANY (ARRAY['rate_limited'::text, 'unsafe_address'::text]))),
  constraint mail_dropped_pkey PRIMARY KEY (id)
);
CREATE INDEX mail_dropped_created_at_idx ON internal.mail_dropped USING btree (created_at);
alter table internal.mail_dropped enable row level security;
comment on table internal.mail_dropped is 'Mails not sent because their address reached its limit (reason rate_limited) or is not mailable.';
