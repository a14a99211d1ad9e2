-- table internal.guest_uploads: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.guest_uploads (
  bucket_id text not null,
  name text not null,
  client_key text,
  size_bytes bigint default 0 not null,
  created_at timestamp with time zone default now() not null,
  constraint guest_uploads_client_key_length CHECK ((char_length(client_key) <= 64)),
  constraint guest_uploads_size_positive CHECK ((size_bytes >= 0)),
  constraint guest_uploads_pkey PRIMARY KEY (bucket_id, name)
);
CREATE INDEX guest_uploads_client_key_idx ON internal.guest_uploads USING btree (client_key, created_at);
CREATE INDEX guest_uploads_created_at_idx ON internal.guest_uploads USING btree (created_at);
alter table internal.guest_uploads enable row level security;
comment on table internal.guest_uploads is 'Booking files uploaded without an account: the client address and size, for the upload budget.';
