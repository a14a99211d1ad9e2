-- table public.bookings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table public.bookings (
  id uuid not null,
  reference text not null,
  user_id uuid,
  guest_name text,
  guest_phone text,
  guest_email text,
  car_id uuid not null,
  start_at timestamp with time zone not null,
  end_at timestamp with time zone not null,
  period tstzrange generated always as (tstzrange(start_at, end_at, '[)'::text)) stored,
  pickup_location_id uuid not null,
  dropoff_location_id uuid not null,
  driver_option text not null,
  license_path text not null,
  flight_document_path text,
  from_abroad boolean default false not null,
  additional_requests text,
  extras text[] default '{}'::text[] not null,
  insurance text[] default '{civil_liability}'::text[] not null,
  payment_method text default 'cash'::text not null,
  payment_status text default 'unpaid'::text not null,
  price jsonb not null,
  total_dzd integer not null,
  notes text,
  status text default 'pending'::text not null,
  status_reason text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  locale text default 'fr'::text not null,
  confirm_by timestamp with time zone,
  contact_confirmed_at timestamp with time zone,
  constraint bookings_additional_requests_length CHECK ((char_length(additional_requests) <= internal.app_limit('text'::text))),
  constraint bookings_at_most_90_days CHECK (((end_at - start_at) <= make_interval(days => internal.app_limit('rental_days'::text)))),
  constraint bookings_confirmed_before_acceptance CHECK (((status = ANY (ARRAY['pending'::text, 'expired'::text, 'cancelled'::text, 'rejected'::text])) OR (user_id IS NOT NULL) OR (contact_confirmed_at IS NOT NULL))),
  constraint bookings_customer_not_confirmed CHECK (((user_id IS NULL) OR (contact_confirmed_at IS NULL))),
  constraint bookings_driver_option_known CHECK ((driver_option = ANY (ARRAY['self'::text, 'provided'::text]))),
  constraint bookings_end_after_start CHECK ((end_at > start_at)),
  constraint bookings_expired_unconfirmed CHECK (((status <> 'expired'::text) OR ((user_id IS NULL) AND (contact_confirmed_at IS NULL)))),
  constraint bookings_flight_document_path_in_folder CHECK ((starts_with(flight_document_path, ((id)::text || '/'::text)) AND (char_length(flight_document_path) <= 300))),
  constraint bookings_flight_document_when_abroad CHECK (((NOT from_abroad) OR (flight_document_path IS NOT NULL))),
  constraint bookings_guest_contact CHECK (((user_id IS NOT NULL) OR ((guest_name IS NOT NULL) AND (guest_phone IS NOT NULL) AND (guest_email IS NOT NULL)))),
  constraint bookings_guest_email_format CHECK (((char_length(guest_email) <= internal.app_limit('email'::text)) AND (guest_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'::text))),
  constraint bookings_guest_hold CHECK (((user_id IS NULL) = (confirm_by IS NOT NULL))),
  constraint bookings_guest_name_clean CHECK ((guest_name !~ '[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]'::text)),
  constraint bookings_guest_name_length CHECK (((char_length(TRIM(BOTH FROM guest_name)) >= 1) AND (char_length(TRIM(BOTH FROM guest_name)) <= internal.app_limit('name'::text)))),
  constraint bookings_guest_phone_format CHECK ((guest_phone ~ '^\+[0-9]{8,15}$'::text)),
  constraint bookings_insurance_has_civil_liability CHECK (('civil_liability'::text = ANY (insurance))),
  constraint bookings_license_path_in_folder CHECK ((starts_with(license_path, ((id)::text || '/'::text)) AND (char_length(license_path) <= 300))),
  constraint bookings_locale_known CHECK ((locale = ANY (ARRAY['fr'::text, 'en'::text, 'ar'::text]))),
  constraint bookings_notes_length CHECK ((char_length(notes) <= 2000)),
  constraint bookings_payment_method_cash CHECK ((payment_method = 'cash'::text)),
  constraint bookings_payment_status_known CHECK ((payment_status = ANY (ARRAY['unpaid'::text, 'paid'::text, 'refunded'::text]))),
  constraint bookings_price_shape CHECK (((jsonb_typeof(price) = 'object'::text) AND (((price ->> 'total'::text))::integer = total_dzd))),
  constraint bookings_reference_format CHECK ((reference ~ '^KR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$'::text)),
  constraint bookings_status_known CHECK ((status = ANY (ARRAY['pending'::text, 'reserved'::text, 'in_progress'::text, 'completed'::text, 'cancelled'::text, 'rejected'::text, 'expired'::text]))),
  constraint bookings_status_reason_length CHECK ((char_length(status_reason) <= internal.app_limit('text'::text))),
  constraint bookings_total_positive CHECK ((total_dzd >= 0)),
  constraint bookings_car_id_fkey FOREIGN KEY (car_id) REFERENCES cars(id) ON DELETE RESTRICT,
  constraint bookings_dropoff_location_id_fkey FOREIGN KEY (dropoff_location_id) REFERENCES locations(id) ON DELETE RESTRICT,
  constraint bookings_pickup_location_id_fkey FOREIGN KEY (pickup_location_id) REFERENCES locations(id) ON DELETE RESTRICT,
  constraint bookings_user_id_fkey FOREIGN KEY (user_id) REFERENCES profiles(id) ON DELETE RESTRICT,
  constraint bookings_pkey PRIMARY KEY (id),
  constraint bookings_id_car_user_key UNIQUE (id, car_id, user_id),
  constraint bookings_reference_key UNIQUE (reference),
  constraint bookings_no_overlap EXCLUDE USING gist (car_id WITH =, period WITH &&) WHERE (((status = ANY (ARRAY['reserved'::text, 'in_progress'::text])) OR ((status = 'pending'::text) AND ((confirm_by IS NULL) OR (contact_confirmed_at IS NOT NULL)))))
);
CREATE INDEX bookings_car_id_idx ON public.bookings USING btree (car_id);
CREATE INDEX bookings_dropoff_location_id_idx ON public.bookings USING btree (dropoff_location_id);
CREATE INDEX bookings_pickup_location_id_idx ON public.bookings USING btree (pickup_location_id);
CREATE INDEX bookings_status_start_at_idx ON public.bookings USING btree (status, start_at);
CREATE INDEX bookings_unconfirmed_confirm_by_idx ON public.bookings USING btree (confirm_by) WHERE ((status = 'pending'::text) AND (contact_confirmed_at IS NULL));
CREATE INDEX bookings_user_id_created_at_idx ON public.bookings USING btree (user_id, created_at DESC);
alter table public.bookings enable row level security;
grant select on table public.bookings to authenticated;
grant delete, insert, references, select, trigger, truncate, update on table public.bookings to service_role;
