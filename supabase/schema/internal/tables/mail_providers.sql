-- table internal.mail_providers: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.mail_providers (
  domain text not null,
  constraint mail_providers_domain_format CHECK ((domain ~ '^[a-z0-9-]+(\.[a-z0-9-]+)+$'::text)),
  constraint mail_providers_pkey PRIMARY KEY (domain)
);
alter table internal.mail_providers enable row level security;
comment on table internal.mail_providers is 'Public mail providers: their mailboxes count one by one; any other domain counts as one source.';
