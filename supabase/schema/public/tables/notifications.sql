-- table public.notifications: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table public.notifications (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  booking_id uuid,
  type text not null,
  is_read boolean default false not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  reference text,
  reason text,
  reason_code text,
  constraint notifications_names_a_booking CHECK (((booking_id IS NOT NULL) OR (reference IS NOT NULL))),
  constraint notifications_reason_code_format CHECK ((reason_code ~ '^[a-z][a-z_]{1,39}$'::text)),
  constraint notifications_reason_length CHECK ((char_length(reason) <= internal.app_limit('text'::text))),
  constraint notifications_reference_format CHECK ((reference ~ '^KR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$'::text)),
  constraint notifications_type_format CHECK ((type ~ '^[a-z][a-z_]{1,39}$'::text)),
  constraint notifications_booking_id_fkey FOREIGN KEY (booking_id) REFERENCES bookings(id) ON DELETE CASCADE,
  constraint notifications_user_id_fkey FOREIGN KEY (user_id) REFERENCES profiles(id) ON DELETE CASCADE,
  constraint notifications_pkey PRIMARY KEY (id)
);
CREATE INDEX notifications_booking_id_idx ON public.notifications USING btree (booking_id);
CREATE INDEX notifications_user_id_created_at_idx ON public.notifications USING btree (user_id, created_at DESC);
alter table public.notifications enable row level security;
grant select on table public.notifications to authenticated;
grant delete, insert, references, select, trigger, truncate, update on table public.notifications to service_role;
