-- table internal.upload_checks: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.upload_checks (
  bucket_id text not null,
  name text not null,
  verdict text not null,
  detected_type text,
  reason text,
  checked_at timestamp with time zone default now() not null,
  constraint upload_checks_bucket_known CHECK ((bucket_id = ANY (ARRAY['licenses'::text, 'flight-documents'::text, 'cars'::text, 'handovers'::text]))),
  constraint upload_checks_reason_known CHECK ((reason = ANY (ARRAY['type_not_allowed'::text, 'content_mismatch'::text, 'empty'::text]))),
  constraint upload_checks_reason_when_rejected CHECK (((verdict = 'rejected'::text) = (reason IS NOT NULL))),
  constraint upload_checks_verdict_known CHECK ((verdict = ANY (ARRAY['ok'::text, 'rejected'::text]))),
  constraint upload_checks_pkey PRIMARY KEY (bucket_id, name)
);
alter table internal.upload_checks enable row level security;
