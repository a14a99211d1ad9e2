-- table internal.guest_claim_failures: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.guest_claim_failures (
  user_id uuid not null,
  failed_at timestamp with time zone default now() not null
);
CREATE INDEX guest_claim_failures_user_idx ON internal.guest_claim_failures USING btree (user_id, failed_at);
alter table internal.guest_claim_failures enable row level security;
