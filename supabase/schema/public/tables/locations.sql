-- table public.locations: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table public.locations (
  id uuid default gen_random_uuid() not null,
  kind text not null,
  iata text,
  name jsonb not null,
  delivery_fee_dzd integer default 0 not null,
  sort_order smallint default 0 not null,
  active boolean default true not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  opening_hours jsonb default '[[0, 1440], [0, 1440], [0, 1440], [0, 1440], [0, 1440], [0, 1440], [0, 1440]]'::jsonb not null,
  closed_dates date[] default '{}'::date[] not null,
  constraint locations_closed_dates_bounded CHECK (((cardinality(closed_dates) <= internal.app_limit('closed_dates'::text)) AND (array_position(closed_dates, NULL::date) IS NULL))),
  constraint locations_fee_bounded CHECK ((delivery_fee_dzd <= internal.app_limit('price_dzd'::text))),
  constraint locations_fee_positive CHECK ((delivery_fee_dzd >= 0)),
  constraint locations_iata_format CHECK ((((kind = 'airport'::text) AND (iata ~ '^[A-Z]{3}$'::text)) OR ((kind = 'city'::text) AND (iata IS NULL)))),
  constraint locations_kind_known CHECK ((kind = ANY (ARRAY['city'::text, 'airport'::text]))),
  constraint locations_name_localized CHECK (internal.is_localized(name)),
  constraint locations_opening_hours_valid CHECK (internal.is_opening_hours(opening_hours)),
  constraint locations_pkey PRIMARY KEY (id)
);
CREATE INDEX locations_updated_at_id_idx ON public.locations USING btree (updated_at, id);
alter table public.locations enable row level security;
grant select on table public.locations to anon;
grant select on table public.locations to authenticated;
grant delete, insert, references, select, trigger, truncate, update on table public.locations to service_role;
