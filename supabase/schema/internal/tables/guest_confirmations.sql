-- table internal.guest_confirmations: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.guest_confirmations (
  booking_id uuid not null,
  code_hash text not null,
  sends smallint default 1 not null,
  last_sent_at timestamp with time zone default now() not null,
  created_at timestamp with time zone default now() not null,
  confirmed_at timestamp with time zone,
  previous_code_hash text,
  mail_sent boolean default true not null,
  constraint guest_confirmations_code_hash_format CHECK ((code_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint guest_confirmations_previous_code_hash_format CHECK (((previous_code_hash IS NULL) OR (previous_code_hash ~ '^[0-9a-f]{64}$'::text))),
  constraint guest_confirmations_sends_range CHECK (((sends >= 1) AND (sends <= 100))),
  constraint guest_confirmations_booking_id_fkey FOREIGN KEY (booking_id) REFERENCES bookings(id) ON DELETE CASCADE,
  constraint guest_confirmations_pkey PRIMARY KEY (booking_id)
);
CREATE INDEX guest_confirmations_created_at_idx ON internal.guest_confirmations USING btree (created_at);
alter table internal.guest_confirmations enable row level security;
comment on table internal.guest_confirmations is 'Confirmation state of guest bookings: hashed code, attempts, resends, the creating address (for limits).';
