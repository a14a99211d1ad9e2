-- table internal.push_attempts: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table internal.push_attempts (
  push_id bigint not null,
  attempt integer not null,
  at timestamp with time zone default now() not null,
  status_code integer,
  outcome text not null,
  error text,
  constraint push_attempts_error_length CHECK ((char_length(error) <= 1000)),
  constraint push_attempts_outcome_known CHECK ((outcome = ANY (ARRAY['sent'::text, 'retry'::text, 'failed'::text, 'gone'::text]))),
  constraint push_attempts_push_id_fkey FOREIGN KEY (push_id) REFERENCES internal.push_outbox(id) ON DELETE CASCADE
);
CREATE INDEX push_attempts_push_id_idx ON internal.push_attempts USING btree (push_id);
alter table internal.push_attempts enable row level security;
