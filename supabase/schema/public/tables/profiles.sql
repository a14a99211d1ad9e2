-- table public.profiles: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table public.profiles (
  id uuid not null,
  full_name text default ''::text not null,
  phone text,
  age integer,
  address text,
  role text default 'user'::text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint profiles_address_length CHECK (((char_length(address) >= 1) AND (char_length(address) <= internal.app_limit('address'::text)))),
  constraint profiles_age_adult CHECK (((age >= internal.app_limit('age_min'::text)) AND (age <= internal.app_limit('age_max'::text)))),
  constraint profiles_full_name_length CHECK ((char_length(full_name) <= internal.app_limit('name'::text))),
  constraint profiles_phone_length CHECK (((char_length(phone) >= 1) AND (char_length(phone) <= 32))),
  constraint profiles_role_known CHECK ((role = ANY (ARRAY['user'::text, 'admin'::text]))),
  constraint profiles_id_fkey FOREIGN KEY (id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint profiles_pkey PRIMARY KEY (id)
);
alter table public.profiles enable row level security;
comment on table public.profiles is 'One row per auth user (created by a trigger from raw_user_meta_data); role decides staff access.';
grant select on table public.profiles to authenticated;
grant delete, insert, references, select, trigger, truncate, update on table public.profiles to service_role;
