-- table public.push_subscriptions: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table public.push_subscriptions (
  id uuid default gen_random_uuid() not null,
  user_id uuid,
  booking_id uuid,
  endpoint text not null,
  p256dh text not null,
  auth text not null,
  locale text default 'fr'::text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint push_subscriptions_auth_format CHECK ((auth ~ '^[A-Za-z0-9_-]{22}(==)?$'::text)),
  constraint push_subscriptions_endpoint_length CHECK ((char_length(endpoint) <= 1024)),
  constraint push_subscriptions_locale_known CHECK ((locale = ANY (ARRAY['fr'::text, 'en'::text, 'ar'::text]))),
  constraint push_subscriptions_one_owner CHECK (((user_id IS NULL) <> (booking_id IS NULL))),
  constraint push_subscriptions_p256dh_format CHECK ((p256dh ~ '^[A-Za-z0-9_-]{87}=?$'::text)),
  constraint push_subscriptions_booking_id_fkey FOREIGN KEY (booking_id) REFERENCES bookings(id) ON DELETE CASCADE,
  constraint push_subscriptions_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint push_subscriptions_pkey PRIMARY KEY (id),
  constraint push_subscriptions_booking_endpoint_key UNIQUE (booking_id, endpoint),
  constraint push_subscriptions_user_endpoint_key UNIQUE (user_id, endpoint)
);
CREATE INDEX push_subscriptions_booking_id_idx ON public.push_subscriptions USING btree (booking_id);
CREATE INDEX push_subscriptions_endpoint_idx ON public.push_subscriptions USING btree (endpoint);
alter table public.push_subscriptions enable row level security;
grant delete, select on table public.push_subscriptions to authenticated;
grant delete, insert, references, select, trigger, truncate, update on table public.push_subscriptions to service_role;
