-- table public.booking_handovers: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table public.booking_handovers (
  id uuid not null,
  booking_id uuid not null,
  kind text not null,
  odometer_km integer not null,
  fuel_eighths smallint not null,
  id_document_type text,
  id_document_number text,
  id_document_masked text generated always as (internal.mask_document_number(id_document_number)) stored,
  licence_seen boolean,
  deposit_dzd integer,
  deposit_status text not null,
  deposit_kept_dzd integer,
  deposit_reason text,
  photos jsonb default '[]'::jsonb not null,
  damage jsonb default '[]'::jsonb not null,
  notes text,
  recorded_at timestamp with time zone not null,
  recorded_by uuid,
  created_at timestamp with time zone default now() not null,
  constraint booking_handovers_damage_valid CHECK (internal.valid_handover_damage(damage)),
  constraint booking_handovers_fuel_range CHECK (((fuel_eighths >= 0) AND (fuel_eighths <= 8))),
  constraint booking_handovers_kind_known CHECK ((kind = ANY (ARRAY['pickup'::text, 'return'::text]))),
  constraint booking_handovers_notes_length CHECK ((char_length(notes) <= internal.app_limit('text'::text))),
  constraint booking_handovers_odometer_range CHECK (((odometer_km >= 0) AND (odometer_km <= internal.app_limit('odometer_km'::text)))),
  constraint booking_handovers_photos_valid CHECK (internal.valid_handover_photos(photos, booking_id, id)),
  constraint booking_handovers_pickup_fields CHECK (((kind <> 'pickup'::text) OR COALESCE(((id_document_type = ANY (ARRAY['national_id'::text, 'passport'::text, 'driving_licence'::text])) AND (id_document_number ~ '^[A-Za-z0-9][A-Za-z0-9 -]{2,28}[A-Za-z0-9]$'::text) AND (licence_seen IS TRUE) AND ((deposit_dzd >= 0) AND (deposit_dzd <= internal.app_limit('amount_dzd'::text))) AND (deposit_status = 'held'::text) AND (deposit_kept_dzd IS NULL) AND (deposit_reason IS NULL)), false))),
  constraint booking_handovers_return_fields CHECK (((kind <> 'return'::text) OR COALESCE(((id_document_type IS NULL) AND (id_document_number IS NULL) AND (licence_seen IS NULL) AND (deposit_dzd IS NULL) AND (((deposit_status = 'returned'::text) AND (deposit_kept_dzd IS NULL) AND (deposit_reason IS NULL)) OR ((deposit_status = 'kept'::text) AND ((deposit_kept_dzd >= 1) AND (deposit_kept_dzd <= internal.app_limit('amount_dzd'::text))) AND ((char_length(btrim(deposit_reason)) >= 1) AND (char_length(btrim(deposit_reason)) <= internal.app_limit('text'::text)))))), false))),
  constraint booking_handovers_text_clean CHECK (((NOT internal.has_hidden_characters(notes)) AND (NOT internal.has_hidden_characters(deposit_reason)))),
  constraint booking_handovers_booking_id_fkey FOREIGN KEY (booking_id) REFERENCES bookings(id) ON DELETE CASCADE,
  constraint booking_handovers_recorded_by_fkey FOREIGN KEY (recorded_by) REFERENCES profiles(id) ON DELETE SET NULL,
  constraint booking_handovers_pkey PRIMARY KEY (id),
  constraint booking_handovers_one_per_kind UNIQUE (booking_id, kind)
);
CREATE INDEX booking_handovers_recorded_by_idx ON public.booking_handovers USING btree (recorded_by);
alter table public.booking_handovers enable row level security;
comment on table public.booking_handovers is 'Pickup and return records of a booking (staff write through staff_record_handover).';
grant delete, insert, references, select, trigger, truncate, update on table public.booking_handovers to service_role;
