-- The catalogue the app syncs into IndexedDB: cars, locations, extras, insurance options and the
-- settings row. Every table carries `updated_at` (set by the server) and `active` (rows are
-- retired, never deleted), indexed for the app's keyset delta `(updated_at, id)`.
-- See docs/database.md.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
create table public.cars (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique,
  name text not null,
  make text not null,
  model text not null,
  body text not null,
  seats smallint not null,
  doors smallint not null,
  passengers smallint not null,
  fuel text not null,
  year smallint not null,
  transmission text not null,
  drive text not null,
  engine text not null,
  mileage_km integer not null,
  exterior_color text not null,
  interior_color text not null,
  features text[] not null default '{}',
  description jsonb not null,
  daily_rate_dzd integer not null,
  deposit_dzd integer not null,
  images text[] not null default '{}',
  -- Kept by the reviews trigger (20261122001300_bookings.sql); a new review bumps updated_at.
  rating_avg numeric(3, 2),
  rating_count integer not null default 0,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.locations (
  id uuid primary key default gen_random_uuid(),
  kind text not null,
  iata text,
  name jsonb not null,
  delivery_fee_dzd integer not null default 0,
  sort_order smallint not null default 0,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.extras (
  code text primary key,
  name jsonb not null,
  price_dzd integer not null,
  per text not null,
  sort_order smallint not null default 0,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.insurance_options (
  code text primary key,
  name jsonb not null,
  price_dzd_per_day integer not null,
  included boolean not null default false,
  sort_order smallint not null default 0,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- One row (id = 1).
create table public.settings (
  id smallint primary key default 1,
  driver_per_day_dzd integer not null,
  min_age smallint not null default 18,
  currency text not null default 'DZD',
  time_zone text not null default 'Africa/Algiers',
  updated_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table public.cars
  add constraint cars_slug_format check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 80),
  add constraint cars_name_length check (char_length(trim(name)) between 1 and 80),
  add constraint cars_make_length check (char_length(trim(make)) between 1 and 40),
  add constraint cars_model_length check (char_length(trim(model)) between 1 and 40),
  add constraint cars_body_known check (body in ('city', 'hatchback', 'sedan', 'suv', 'pickup', 'van')),
  add constraint cars_seats_range check (seats between 1 and 9),
  add constraint cars_doors_range check (doors between 2 and 5),
  add constraint cars_passengers_range check (passengers between 1 and 9),
  add constraint cars_fuel_known check (fuel in ('petrol', 'diesel', 'hybrid', 'electric', 'lpg')),
  add constraint cars_year_range check (year between 1990 and 2100),
  add constraint cars_transmission_known check (transmission in ('automatic', 'manual')),
  add constraint cars_drive_known check (drive in ('fwd', 'rwd', 'awd', '4wd')),
  add constraint cars_engine_length check (char_length(trim(engine)) between 1 and 60),
  add constraint cars_mileage_positive check (mileage_km >= 0),
  add constraint cars_exterior_color_known check (exterior_color in (
    'white', 'black', 'silver', 'grey', 'red', 'blue', 'green', 'beige', 'brown', 'orange', 'yellow')),
  add constraint cars_interior_color_known check (interior_color in ('black', 'grey', 'beige', 'brown', 'red')),
  add constraint cars_features_known check (features <@ array[
    'bluetooth', 'gps', 'heated_seats', 'sunroof', 'parking_sensors', 'air_conditioning',
    'leather_seats']::text[]),
  add constraint cars_description_localized check (internal.is_localized(description)),
  add constraint cars_daily_rate_positive check (daily_rate_dzd > 0),
  add constraint cars_deposit_positive check (deposit_dzd >= 0),
  -- App paths (/cars/<slug>-1.svg) or https URLs (the public `cars` bucket), no blanks.
  add constraint cars_images_paths check (
    cardinality(images) <= 12
    and array_position(images, null) is null
    and array_to_string(images, ' ') ~ '^((/|https://)\S+)?( (/|https://)\S+)*$'
  ),
  add constraint cars_rating_range check (
    (rating_count = 0 and rating_avg is null)
    or (rating_count > 0 and rating_avg between 1 and 5)
  );

alter table public.locations
  add constraint locations_kind_known check (kind in ('city', 'airport')),
  add constraint locations_iata_format check (
    (kind = 'airport' and iata ~ '^[A-Z]{3}$') or (kind = 'city' and iata is null)
  ),
  add constraint locations_name_localized check (internal.is_localized(name)),
  add constraint locations_fee_positive check (delivery_fee_dzd >= 0);

alter table public.extras
  add constraint extras_code_format check (code ~ '^[a-z][a-z0-9_]{1,39}$'),
  add constraint extras_name_localized check (internal.is_localized(name)),
  add constraint extras_price_positive check (price_dzd >= 0),
  add constraint extras_per_known check (per in ('day', 'rental'));

alter table public.insurance_options
  add constraint insurance_options_code_format check (code ~ '^[a-z][a-z0-9_]{1,39}$'),
  add constraint insurance_options_name_localized check (internal.is_localized(name)),
  add constraint insurance_options_price_positive check (price_dzd_per_day >= 0),
  add constraint insurance_options_included_free check (not included or price_dzd_per_day = 0);

alter table public.settings
  add constraint settings_single_row check (id = 1),
  add constraint settings_driver_positive check (driver_per_day_dzd >= 0),
  add constraint settings_min_age_adult check (min_age >= 18),
  add constraint settings_currency_dzd check (currency = 'DZD'),
  add constraint settings_time_zone_algiers check (time_zone = 'Africa/Algiers');

-- Keyset cursors of the app's delta sync: where (updated_at, id) > (cursor) order by updated_at, id.
create index cars_updated_at_id_idx on public.cars (updated_at, id);
create index locations_updated_at_id_idx on public.locations (updated_at, id);
create index extras_updated_at_code_idx on public.extras (updated_at, code);
create index insurance_options_updated_at_code_idx on public.insurance_options (updated_at, code);

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
create trigger cars_set_updated_at
  before insert or update on public.cars
  for each row execute function internal.set_updated_at();
create trigger locations_set_updated_at
  before insert or update on public.locations
  for each row execute function internal.set_updated_at();
create trigger extras_set_updated_at
  before insert or update on public.extras
  for each row execute function internal.set_updated_at();
create trigger insurance_options_set_updated_at
  before insert or update on public.insurance_options
  for each row execute function internal.set_updated_at();
create trigger settings_set_updated_at
  before insert or update on public.settings
  for each row execute function internal.set_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
-- The catalogue is public, retired rows included: the app's delta must see `active = false` to
-- drop a retired car, place or option from the device (docs/architecture.md). The app shows only
-- active rows and create_booking refuses inactive ones. Staff maintain it; rows are retired,
-- never deleted (no delete policy, no delete grant).
alter table public.cars enable row level security;
alter table public.locations enable row level security;
alter table public.extras enable row level security;
alter table public.insurance_options enable row level security;
alter table public.settings enable row level security;

create policy "Everyone reads the cars"
  on public.cars for select to anon, authenticated using (true);
create policy "Admins add cars"
  on public.cars for insert to authenticated with check ((select public.is_admin()));
create policy "Admins update cars"
  on public.cars for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

create policy "Everyone reads the locations"
  on public.locations for select to anon, authenticated using (true);
create policy "Admins add locations"
  on public.locations for insert to authenticated with check ((select public.is_admin()));
create policy "Admins update locations"
  on public.locations for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

create policy "Everyone reads the extras"
  on public.extras for select to anon, authenticated using (true);
create policy "Admins add extras"
  on public.extras for insert to authenticated with check ((select public.is_admin()));
create policy "Admins update extras"
  on public.extras for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

create policy "Everyone reads the insurance options"
  on public.insurance_options for select to anon, authenticated using (true);
create policy "Admins add insurance options"
  on public.insurance_options for insert to authenticated with check ((select public.is_admin()));
create policy "Admins update insurance options"
  on public.insurance_options for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

create policy "Everyone reads the settings"
  on public.settings for select to anon, authenticated using (true);
create policy "Admins update the settings"
  on public.settings for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on table public.cars, public.locations, public.extras, public.insurance_options,
  public.settings from anon, authenticated;

grant select on table public.cars, public.locations, public.extras, public.insurance_options,
  public.settings to anon, authenticated;

-- Staff edit the catalogue (the policies restrict these to admins). The derived rating columns
-- and the timestamps are the server's.
grant insert (id, slug, name, make, model, body, seats, doors, passengers, fuel, year,
  transmission, drive, engine, mileage_km, exterior_color, interior_color, features, description,
  daily_rate_dzd, deposit_dzd, images, active) on table public.cars to authenticated;
grant update (slug, name, make, model, body, seats, doors, passengers, fuel, year, transmission,
  drive, engine, mileage_km, exterior_color, interior_color, features, description,
  daily_rate_dzd, deposit_dzd, images, active) on table public.cars to authenticated;
grant insert (id, kind, iata, name, delivery_fee_dzd, sort_order, active)
  on table public.locations to authenticated;
grant update (kind, iata, name, delivery_fee_dzd, sort_order, active)
  on table public.locations to authenticated;
grant insert (code, name, price_dzd, per, sort_order, active)
  on table public.extras to authenticated;
grant update (name, price_dzd, per, sort_order, active)
  on table public.extras to authenticated;
grant insert (code, name, price_dzd_per_day, included, sort_order, active)
  on table public.insurance_options to authenticated;
grant update (name, price_dzd_per_day, included, sort_order, active)
  on table public.insurance_options to authenticated;
-- min_age stays 18: the legal floor the profiles CHECK enforces, not a staff setting.
grant update (driver_per_day_dzd) on table public.settings to authenticated;

grant all on table public.cars, public.locations, public.extras, public.insurance_options,
  public.settings to service_role;
