-- table public.insurance_options: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table public.insurance_options (
  code text not null,
  name jsonb not null,
  price_dzd_per_day integer not null,
  included boolean default false not null,
  sort_order smallint default 0 not null,
  active boolean default true not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint insurance_options_code_format CHECK ((code ~ '^[a-z][a-z0-9_]{1,39}$'::text)),
  constraint insurance_options_included_free CHECK (((NOT included) OR (price_dzd_per_day = 0))),
  constraint insurance_options_name_localized CHECK (internal.is_localized(name)),
  constraint insurance_options_price_bounded CHECK ((price_dzd_per_day <= internal.app_limit('price_dzd'::text))),
  constraint insurance_options_price_positive CHECK ((price_dzd_per_day >= 0)),
  constraint insurance_options_pkey PRIMARY KEY (code)
);
CREATE INDEX insurance_options_updated_at_code_idx ON public.insurance_options USING btree (updated_at, code);
alter table public.insurance_options enable row level security;
grant select on table public.insurance_options to anon;
grant select on table public.insurance_options to authenticated;
grant delete, insert, references, select, trigger, truncate, update on table public.insurance_options to service_role;
