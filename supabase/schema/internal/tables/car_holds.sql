-- table internal.car_holds: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.car_holds (
  car_id uuid not null,
  period tstzrange not null,
  booking_id uuid,
  block_id uuid,
  constraint car_holds_one_source CHECK (((booking_id IS NULL) <> (block_id IS NULL))),
  constraint car_holds_block_id_fkey FOREIGN KEY (block_id) REFERENCES car_blocks(id) ON DELETE CASCADE,
  constraint car_holds_booking_id_fkey FOREIGN KEY (booking_id) REFERENCES bookings(id) ON DELETE CASCADE,
  constraint car_holds_block_id_key UNIQUE (block_id),
  constraint car_holds_booking_id_key UNIQUE (booking_id),
  constraint car_holds_no_overlap EXCLUDE USING gist (car_id WITH =, period WITH &&)
);
alter table internal.car_holds enable row level security;
