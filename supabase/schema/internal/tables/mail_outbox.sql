-- table internal.mail_outbox: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.mail_outbox (
  id bigint generated always as identity not null,
  to_email text not null,
  subject text not null,
  body_text text not null,
  booking_id uuid,
  created_at timestamp with time zone default now() not null,
  sent_at timestamp with time zone,
  kind text,
  locale text,
  attempts integer default 0 not null,
  next_attempt_at timestamp with time zone default now() not null,
  claimed_until timestamp with time zone,
  last_error text,
  failed_at timestamp with time zone,
  provider_id text,
  batch_key uuid,
  constraint mail_outbox_attempts_positive CHECK ((attempts >= 0)),
  constraint mail_outbox_kind_format CHECK ((kind ~ '^[a-z][a-z_]{1,39}$'::text)),
  constraint mail_outbox_last_error_length CHECK ((char_length(last_error) <= 1000)),
  constraint mail_outbox_locale_known CHECK ((locale = ANY (ARRAY['fr'::text, 'en'::text, 'ar'::text]))),
  constraint mail_outbox_to_email_format CHECK ((to_email ~ '^[^@\s]+@[^@\s]+$'::text)),
  constraint mail_outbox_pkey PRIMARY KEY (id)
);
CREATE INDEX mail_outbox_due_idx ON internal.mail_outbox USING btree (next_attempt_at) WHERE ((sent_at IS NULL) AND (failed_at IS NULL));
CREATE INDEX mail_outbox_to_key_created_at_idx ON internal.mail_outbox USING btree (internal.email_key(to_email), created_at);
CREATE INDEX mail_outbox_unsent_idx ON internal.mail_outbox USING btree (created_at) WHERE (sent_at IS NULL);
alter table internal.mail_outbox enable row level security;
