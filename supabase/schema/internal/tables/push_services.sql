-- table internal.push_services: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.push_services (
  scheme text not null,
  host text not null,
  port integer,
  note text,
  constraint push_services_host_format CHECK ((host ~ '^(\*\.)?[a-z0-9.-]+$'::text)),
  constraint push_services_port_range CHECK (((port >= 1) AND (port <= 65535))),
  constraint push_services_scheme_known CHECK ((scheme = ANY (ARRAY['https'::text, 'http'::text]))),
  constraint push_services_pkey PRIMARY KEY (scheme, host)
);
alter table internal.push_services enable row level security;
