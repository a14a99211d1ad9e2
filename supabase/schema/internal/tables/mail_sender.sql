-- table internal.mail_sender: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.mail_sender (
  id boolean default true not null,
  busy_until timestamp with time zone default '-infinity'::timestamp with time zone not null,
  holder uuid,
  constraint mail_sender_single CHECK (id),
  constraint mail_sender_pkey PRIMARY KEY (id)
);
alter table internal.mail_sender enable row level security;
