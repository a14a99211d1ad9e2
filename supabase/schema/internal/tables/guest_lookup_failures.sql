-- table internal.guest_lookup_failures: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.guest_lookup_failures (
  id bigint generated always as identity not null,
  reference_key text not null,
  client_key text not null,
  failed_at timestamp with time zone default now() not null,
  contact_key text,
  constraint guest_lookup_failures_client_key_length CHECK ((char_length(client_key) <= 64)),
  constraint guest_lookup_failures_contact_key_format CHECK ((contact_key ~ '^[0-9a-f]{64}$'::text)),
  constraint guest_lookup_failures_reference_key_length CHECK ((char_length(reference_key) <= 64)),
  constraint guest_lookup_failures_pkey PRIMARY KEY (id)
);
CREATE INDEX guest_lookup_failures_client_contact_idx ON internal.guest_lookup_failures USING btree (client_key, contact_key, failed_at);
CREATE INDEX guest_lookup_failures_client_idx ON internal.guest_lookup_failures USING btree (client_key, failed_at);
CREATE INDEX guest_lookup_failures_failed_at_idx ON internal.guest_lookup_failures USING btree (failed_at);
CREATE INDEX guest_lookup_failures_reference_client_idx ON internal.guest_lookup_failures USING btree (reference_key, client_key, failed_at);
CREATE INDEX guest_lookup_failures_reference_idx ON internal.guest_lookup_failures USING btree (reference_key, failed_at);
alter table internal.guest_lookup_failures enable row level security;
