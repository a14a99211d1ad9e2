-- table public.booking_events: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table public.booking_events (
  id bigint generated always as identity not null,
  booking_id uuid not null,
  status text not null,
  reason text,
  actor text not null,
  actor_id uuid,
  created_at timestamp with time zone default now() not null,
  constraint booking_events_actor_known CHECK ((actor = ANY (ARRAY['customer'::text, 'guest'::text, 'staff'::text, 'system'::text]))),
  constraint booking_events_reason_length CHECK ((char_length(reason) <= internal.app_limit('text'::text))),
  constraint booking_events_status_known CHECK ((status = ANY (ARRAY['pending'::text, 'reserved'::text, 'in_progress'::text, 'completed'::text, 'cancelled'::text, 'rejected'::text, 'expired'::text, 'pickup_recorded'::text, 'return_recorded'::text]))),
  constraint booking_events_actor_id_fkey FOREIGN KEY (actor_id) REFERENCES profiles(id) ON DELETE SET NULL,
  constraint booking_events_booking_id_fkey FOREIGN KEY (booking_id) REFERENCES bookings(id) ON DELETE CASCADE,
  constraint booking_events_pkey PRIMARY KEY (id)
);
CREATE INDEX booking_events_actor_id_idx ON public.booking_events USING btree (actor_id);
CREATE INDEX booking_events_booking_id_created_at_idx ON public.booking_events USING btree (booking_id, created_at, id);
alter table public.booking_events enable row level security;
comment on table public.booking_events is 'Status history of each booking (written by triggers on public.bookings); staff read it.';
grant select on table public.booking_events to authenticated;
grant delete, insert, references, select, trigger, truncate, update on table public.booking_events to service_role;
