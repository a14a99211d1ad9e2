-- table public.booking_refusals: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table public.booking_refusals (
  id uuid not null,
  reference text not null,
  user_id uuid,
  car_id uuid,
  start_at timestamp with time zone not null,
  end_at timestamp with time zone not null,
  code text not null,
  locale text not null,
  notified boolean default false not null,
  created_at timestamp with time zone default now() not null,
  guest_email text,
  guest_phone text,
  client_key text,
  request_hash text not null,
  constraint booking_refusals_code_final CHECK (internal.is_final_refusal(code)),
  constraint booking_refusals_contact CHECK (((user_id IS NOT NULL) OR ((guest_email IS NOT NULL) AND (guest_phone IS NOT NULL)))),
  constraint booking_refusals_dates_order CHECK ((end_at > start_at)),
  constraint booking_refusals_hash_format CHECK ((request_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint booking_refusals_locale_known CHECK ((locale = ANY (ARRAY['fr'::text, 'en'::text, 'ar'::text]))),
  constraint booking_refusals_reference_format CHECK ((reference ~ '^KR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$'::text)),
  constraint booking_refusals_user_id_fkey FOREIGN KEY (user_id) REFERENCES profiles(id) ON DELETE CASCADE,
  constraint booking_refusals_pkey PRIMARY KEY (id)
);
CREATE INDEX booking_refusals_client_key_idx ON public.booking_refusals USING btree (client_key, created_at);
CREATE INDEX booking_refusals_created_at_idx ON public.booking_refusals USING btree (created_at);
CREATE INDEX booking_refusals_user_id_idx ON public.booking_refusals USING btree (user_id, created_at);
alter table public.booking_refusals enable row level security;
comment on table public.booking_refusals is 'Bookings refused when they reached the server (report_refused_booking); no booking row exists.';
grant delete, insert, references, select, trigger, truncate, update on table public.booking_refusals to service_role;
