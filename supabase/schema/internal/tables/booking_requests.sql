-- table internal.booking_requests: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.booking_requests (
  booking_id uuid not null,
  request_hash text not null,
  created_at timestamp with time zone default now() not null,
  constraint booking_requests_hash_format CHECK ((request_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint booking_requests_booking_id_fkey FOREIGN KEY (booking_id) REFERENCES bookings(id) ON DELETE CASCADE,
  constraint booking_requests_pkey PRIMARY KEY (booking_id)
);
alter table internal.booking_requests enable row level security;
