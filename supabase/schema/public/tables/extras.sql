-- table public.extras: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table public.extras (
  code text not null,
  name jsonb not null,
  price_dzd integer not null,
  per text not null,
  sort_order smallint default 0 not null,
  active boolean default true not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint extras_code_format CHECK ((code ~ '^[a-z][a-z0-9_]{1,39}$'::text)),
  constraint extras_name_localized CHECK (internal.is_localized(name)),
  constraint extras_per_known CHECK ((per = ANY (ARRAY['day'::text, 'rental'::text]))),
  constraint extras_price_bounded CHECK ((price_dzd <= internal.app_limit('price_dzd'::text))),
  constraint extras_price_positive CHECK ((price_dzd >= 0)),
  constraint extras_pkey PRIMARY KEY (code)
);
CREATE INDEX extras_updated_at_code_idx ON public.extras USING btree (updated_at, code);
alter table public.extras enable row level security;
grant select on table public.extras to anon;
grant select on table public.extras to authenticated;
grant delete, insert, references, select, trigger, truncate, update on table public.extras to service_role;
