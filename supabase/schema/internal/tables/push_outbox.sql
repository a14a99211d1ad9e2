-- table internal.push_outbox: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.push_outbox (
  id bigint generated always as identity not null,
  subscription_id uuid,
  endpoint text not null,
  p256dh text not null,
  auth text not null,
  payload jsonb not null,
  topic text,
  urgency text default 'high'::text not null,
  ttl_seconds integer default 86400 not null,
  created_at timestamp with time zone default now() not null,
  attempts integer default 0 not null,
  next_attempt_at timestamp with time zone default now() not null,
  claimed_until timestamp with time zone,
  last_error text,
  status_code integer,
  sent_at timestamp with time zone,
  failed_at timestamp with time zone,
  constraint push_outbox_last_error_length CHECK ((char_length(last_error) <= 1000)),
  constraint push_outbox_topic_format CHECK ((topic ~ '^[A-Za-z0-9_-]{1,32}$'::text)),
  constraint push_outbox_ttl_range CHECK (((ttl_seconds >= 0) AND (ttl_seconds <= 2419200))),
  constraint push_outbox_urgency_known CHECK ((urgency = ANY (ARRAY['very-low'::text, 'low'::text, 'normal'::text, 'high'::text]))),
  constraint push_outbox_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES push_subscriptions(id) ON DELETE SET NULL,
  constraint push_outbox_pkey PRIMARY KEY (id)
);
CREATE INDEX push_outbox_due_idx ON internal.push_outbox USING btree (next_attempt_at) WHERE ((sent_at IS NULL) AND (failed_at IS NULL));
CREATE INDEX push_outbox_subscription_id_idx ON internal.push_outbox USING btree (subscription_id);
alter table internal.push_outbox enable row level security;
