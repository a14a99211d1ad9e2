-- table internal.confirmation_failures: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.confirmation_failures (
  client_key text not null,
  failed_at timestamp with time zone default now() not null,
  booking_id uuid,
  constraint confirmation_failures_booking_id_fkey FOREIGN KEY (booking_id) REFERENCES bookings(id) ON DELETE CASCADE
);
CREATE INDEX confirmation_failures_booking_idx ON internal.confirmation_failures USING btree (booking_id, client_key, failed_at);
CREATE INDEX confirmation_failures_client_key_idx ON internal.confirmation_failures USING btree (client_key, failed_at);
alter table internal.confirmation_failures enable row level security;
