-- table internal.booking_sources: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.booking_sources (
  booking_id uuid not null,
  client_key text,
  mailbox text not null,
  domain text,
  created_at timestamp with time zone default now() not null,
  constraint booking_sources_client_key_length CHECK ((char_length(client_key) <= 64)),
  constraint booking_sources_domain_length CHECK (((char_length(domain) >= 1) AND (char_length(domain) <= 255))),
  constraint booking_sources_mailbox_length CHECK (((char_length(mailbox) >= 1) AND (char_length(mailbox) <= 320))),
  constraint booking_sources_booking_id_fkey FOREIGN KEY (booking_id) REFERENCES bookings(id) ON DELETE CASCADE,
  constraint booking_sources_pkey PRIMARY KEY (booking_id)
);
CREATE INDEX booking_sources_client_key_idx ON internal.booking_sources USING btree (client_key, created_at) WHERE (client_key IS NOT NULL);
CREATE INDEX booking_sources_domain_idx ON internal.booking_sources USING btree (domain);
CREATE INDEX booking_sources_mailbox_idx ON internal.booking_sources USING btree (mailbox);
alter table internal.booking_sources enable row level security;
comment on table internal.booking_sources is 'The client address, mailbox and mail domain of each booking (limits, and staff''s view of waves).';
