-- table public.car_blocks: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table public.car_blocks (
  id uuid default gen_random_uuid() not null,
  car_id uuid not null,
  start_at timestamp with time zone not null,
  end_at timestamp with time zone not null,
  period tstzrange generated always as (tstzrange(start_at, end_at, '[)'::text)) stored,
  reason text not null,
  created_by uuid,
  created_at timestamp with time zone default now() not null,
  constraint car_blocks_at_most_366_days CHECK (((end_at - start_at) <= '366 days'::interval)),
  constraint car_blocks_end_after_start CHECK ((end_at > start_at)),
  constraint car_blocks_reason_length CHECK (((char_length(btrim(reason)) >= 1) AND (char_length(btrim(reason)) <= internal.app_limit('block_reason'::text)))),
  constraint car_blocks_car_id_fkey FOREIGN KEY (car_id) REFERENCES cars(id) ON DELETE RESTRICT,
  constraint car_blocks_created_by_fkey FOREIGN KEY (created_by) REFERENCES profiles(id) ON DELETE SET NULL,
  constraint car_blocks_pkey PRIMARY KEY (id)
);
CREATE INDEX car_blocks_car_id_start_at_idx ON public.car_blocks USING btree (car_id, start_at);
CREATE INDEX car_blocks_created_by_idx ON public.car_blocks USING btree (created_by);
alter table public.car_blocks enable row level security;
comment on table public.car_blocks is 'Periods a car is out of service (staff only); customers see them through car_busy_periods.';
grant select on table public.car_blocks to authenticated;
grant delete, insert, references, select, trigger, truncate, update on table public.car_blocks to service_role;
