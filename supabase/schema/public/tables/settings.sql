-- table public.settings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table public.settings (
  id smallint default 1 not null,
  driver_per_day_dzd integer not null,
  min_age smallint default 18 not null,
  currency text default 'DZD'::text not null,
  time_zone text default 'Africa/Algiers'::text not null,
  updated_at timestamp with time zone default now() not null,
  guest_hold_minutes smallint default 45 not null,
  booking_horizon_days smallint default 365 not null,
  max_pending_per_contact smallint default 3 not null,
  max_pending_per_account smallint default 5 not null,
  max_bookings_per_hour smallint default 20 not null,
  max_mails_per_address_hour smallint default 5 not null,
  max_mails_per_address_day smallint default 10 not null,
  site_url text,
  lookup_failures_per_reference smallint default 5 not null,
  lookup_failures_per_address smallint default 1000 not null,
  max_pending_per_domain smallint default 3 not null,
  max_pending_private_per_address smallint default 6 not null,
  max_fleet_share_per_address smallint default 10 not null,
  max_unconfirmed_per_address_hour smallint default 100 not null,
  max_guest_upload_mb_per_address_hour smallint default 20 not null,
  max_code_mails_per_address_hour smallint default 8 not null,
  max_code_mails_per_address_day smallint default 20 not null,
  constraint settings_booking_horizon_range CHECK (((booking_horizon_days >= 30) AND (booking_horizon_days <= 730))),
  constraint settings_currency_dzd CHECK ((currency = 'DZD'::text)),
  constraint settings_driver_bounded CHECK ((driver_per_day_dzd <= internal.app_limit('price_dzd'::text))),
  constraint settings_driver_positive CHECK ((driver_per_day_dzd >= 0)),
  constraint settings_guest_hold_range CHECK (((guest_hold_minutes >= 10) AND (guest_hold_minutes <= 240))),
  constraint settings_lookup_failures_per_address_range CHECK (((lookup_failures_per_address >= 20) AND (lookup_failures_per_address <= 5000))),
  constraint settings_lookup_failures_per_reference_range CHECK (((lookup_failures_per_reference >= 3) AND (lookup_failures_per_reference <= 20))),
  constraint settings_max_bookings_per_hour_range CHECK (((max_bookings_per_hour >= 1) AND (max_bookings_per_hour <= 1000))),
  constraint settings_max_code_mails_range CHECK ((((max_code_mails_per_address_hour >= 3) AND (max_code_mails_per_address_hour <= 100)) AND ((max_code_mails_per_address_day >= max_code_mails_per_address_hour) AND (max_code_mails_per_address_day <= 1000)))),
  constraint settings_max_fleet_share_per_address_range CHECK (((max_fleet_share_per_address >= 1) AND (max_fleet_share_per_address <= 100))),
  constraint settings_max_guest_upload_mb_range CHECK (((max_guest_upload_mb_per_address_hour >= 5) AND (max_guest_upload_mb_per_address_hour <= 1000))),
  constraint settings_max_mails_per_address_range CHECK ((((max_mails_per_address_hour >= 1) AND (max_mails_per_address_hour <= 100)) AND ((max_mails_per_address_day >= max_mails_per_address_hour) AND (max_mails_per_address_day <= 1000)))),
  constraint settings_max_pending_per_account_range CHECK (((max_pending_per_account >= 1) AND (max_pending_per_account <= 100))),
  constraint settings_max_pending_per_contact_range CHECK (((max_pending_per_contact >= 1) AND (max_pending_per_contact <= 50))),
  constraint settings_max_pending_per_domain_range CHECK (((max_pending_per_domain >= 1) AND (max_pending_per_domain <= 100))),
  constraint settings_max_pending_private_per_address_range CHECK (((max_pending_private_per_address >= 1) AND (max_pending_private_per_address <= 500))),
  constraint settings_max_unconfirmed_per_address_hour_range CHECK (((max_unconfirmed_per_address_hour >= 10) AND (max_unconfirmed_per_address_hour <= 5000))),
  constraint settings_min_age_adult CHECK ((min_age >= 18)),
  constraint settings_single_row CHECK ((id = 1)),
  constraint settings_site_url_format CHECK (((site_url ~ '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-])?$'::text) AND (char_length(site_url) <= 200))),
  constraint settings_time_zone_algiers CHECK ((time_zone = 'Africa/Algiers'::text)),
  constraint settings_pkey PRIMARY KEY (id)
);
alter table public.settings enable row level security;
grant select on table public.settings to anon;
grant select on table public.settings to authenticated;
grant delete, insert, references, select, trigger, truncate, update on table public.settings to service_role;
