-- Work beside the database, done by Edge Functions (docs/functions.md), the same way on a hosted
-- project and on the local stack:
-- - `send-mail` sends internal.mail_outbox: called by a webhook when rows are queued, and every
--   minute by a schedule (retries, and anything a webhook missed);
-- - `check-upload` checks a booking file by its bytes: called by a webhook when a file is stored,
--   and every minute by a schedule; staff cannot accept a booking until its files are checked ok.
-- Webhooks and schedules are pg_net and pg_cron calls (docs/decisions.md, "One schedule"): the
-- real extensions on a hosted project, the local stack's stand-ins elsewhere
-- (supabase/local/extensions.sql). The functions' address and key come from Vault:
-- `project_url` and `service_role_key` (docs/operations.md).

-- ---------------------------------------------------------------------------------------------
-- Extensions
-- ---------------------------------------------------------------------------------------------
do $$
begin
  if to_regnamespace('cron') is null
     and exists (select from pg_available_extensions where name = 'pg_cron') then
    create extension pg_cron;
  end if;
  if to_regnamespace('net') is null
     and exists (select from pg_available_extensions where name = 'pg_net') then
    create extension pg_net with schema extensions;
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
-- Delivery bookkeeping of the outbox (its other columns keep their meaning): a row is leased to
-- one sender at a time (`claimed_until`), retried with backoff on a transient failure, and given
-- up (`failed_at`) on a permanent one or after 8 attempts.
alter table internal.mail_outbox
  add column attempts integer not null default 0,
  add column next_attempt_at timestamptz not null default now(),
  add column claimed_until timestamptz,
  add column last_error text,
  add column failed_at timestamptz,
  -- The provider's id of the sent message.
  add column provider_id text;

-- The verdict on each booking file, by its bytes (check-upload). Kept after a refused file is
-- removed, so the booking stays refused for that reason.
create table internal.upload_checks (
  bucket_id text not null,
  name text not null,
  verdict text not null,
  -- What the bytes are (e.g. application/pdf), when recognised.
  detected_type text,
  -- Why a file was refused: type_not_allowed, content_mismatch, empty.
  reason text,
  checked_at timestamptz not null default now(),
  primary key (bucket_id, name)
);

alter table internal.upload_checks enable row level security;

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table internal.mail_outbox
  add constraint mail_outbox_attempts_positive check (attempts >= 0),
  add constraint mail_outbox_last_error_length check (char_length(last_error) <= 1000);

alter table internal.upload_checks
  add constraint upload_checks_verdict_known check (verdict in ('ok', 'rejected')),
  add constraint upload_checks_bucket_known check (bucket_id in ('licenses', 'flight-documents')),
  add constraint upload_checks_reason_when_rejected check ((verdict = 'rejected') = (reason is not null)),
  add constraint upload_checks_reason_known
    check (reason in ('type_not_allowed', 'content_mismatch', 'empty'));

create index mail_outbox_due_idx on internal.mail_outbox (next_attempt_at)
  where sent_at is null and failed_at is null;

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- Calls an Edge Function after this transaction commits (pg_net), with the service-role key from
-- Vault. Without those secrets it warns and calls nothing: the schedule's sweep retries later.
create or replace function internal.invoke_edge_function(function_name text, payload jsonb)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  base_url text;
  api_key text;
begin
  select s.decrypted_secret into base_url from vault.decrypted_secrets s where s.name = 'project_url';
  select s.decrypted_secret into api_key from vault.decrypted_secrets s where s.name = 'service_role_key';
  if base_url is null or api_key is null then
    raise warning 'Edge Function % not called: the Vault secrets project_url and service_role_key are missing (docs/operations.md)', function_name;
    return null;
  end if;
  return net.http_post(
    url := rtrim(base_url, '/') || '/functions/v1/' || function_name,
    body := payload,
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'Authorization', 'Bearer ' || api_key
    ),
    timeout_milliseconds := 10000
  );
end
$$;

-- Webhook: new mail in the outbox → send-mail (once per statement: the function takes a batch).
create or replace function internal.mail_outbox_webhook()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform internal.invoke_edge_function('send-mail',
    jsonb_build_object('type', 'INSERT', 'schema', 'internal', 'table', 'mail_outbox'));
  return null;
end
$$;

-- Webhook: a booking file stored (or replaced) → check-upload, with the object's row. A replaced
-- file loses its previous verdict.
create or replace function internal.booking_file_webhook()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from internal.upload_checks c where c.bucket_id = new.bucket_id and c.name = new.name;
  perform internal.invoke_edge_function('check-upload', jsonb_build_object(
    'type', tg_op,
    'schema', 'storage',
    'table', 'objects',
    'record', jsonb_build_object('id', new.id, 'bucket_id', new.bucket_id, 'name', new.name)
  ));
  return null;
end
$$;

-- Staff accept a booking only once each of its files was checked ok (a trigger, so every path to
-- `reserved` obeys it, staff_set_booking_status included). On insert, a file already refused is
-- refused too (between its verdict and its removal, create_booking still finds it).
create or replace function internal.require_checked_files()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  file record;
  found_verdict text;
begin
  for file in
    select f.bucket_id, f.name
      from (values ('licenses', new.license_path), ('flight-documents', new.flight_document_path))
           as f (bucket_id, name)
     where f.name is not null
  loop
    select c.verdict into found_verdict
      from internal.upload_checks c
     where c.bucket_id = file.bucket_id and c.name = file.name;
    if found_verdict = 'rejected' then
      perform internal.fail('file_rejected', file.bucket_id || '/' || file.name);
    elsif found_verdict is null and tg_op = 'UPDATE' then
      perform internal.fail('files_not_checked', file.bucket_id || '/' || file.name);
    end if;
  end loop;
  return new;
end
$$;

-- send-mail: leases up to `batch` rows that are due, oldest first (rows leased by another sender
-- are skipped, not waited for). Returns each row as JSON (with any column added later).
create or replace function public.edge_claim_mail(batch integer default 20, lease_seconds integer default 120)
returns setof jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  return query
    update internal.mail_outbox o
       set claimed_until = now() + make_interval(secs => greatest(lease_seconds, 10)),
           attempts = o.attempts + 1
     where o.id in (
       select x.id from internal.mail_outbox x
        where x.sent_at is null and x.failed_at is null and x.next_attempt_at <= now()
          and (x.claimed_until is null or x.claimed_until < now())
        order by x.created_at, x.id
        limit least(greatest(batch, 1), 100)
        for update skip locked)
    returning to_jsonb(o);
end
$$;

-- send-mail: the outcome of one leased row. Sent: `sent_at`. Failed: retried after 1, 2, 4…
-- minutes (at most an hour), or given up when `permanent` or after 8 attempts.
create or replace function public.edge_settle_mail(
  mail_id bigint,
  provider_id text default null,
  error text default null,
  permanent boolean default false
)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if edge_settle_mail.error is null then
    update internal.mail_outbox o
       set sent_at = now(), claimed_until = null, last_error = null,
           provider_id = edge_settle_mail.provider_id
     where o.id = edge_settle_mail.mail_id and o.sent_at is null;
  else
    update internal.mail_outbox o
       set claimed_until = null,
           last_error = left(edge_settle_mail.error, 1000),
           next_attempt_at = now() + least(interval '1 hour', interval '1 minute' * 2 ^ (o.attempts - 1)),
           failed_at = case when edge_settle_mail.permanent or o.attempts >= 8 then now() end
     where o.id = edge_settle_mail.mail_id and o.sent_at is null;
  end if;
end
$$;

-- check-upload: booking files that have no verdict yet (one given file, or the oldest `batch`),
-- with what the check needs: the declared type and the types the bucket accepts.
create or replace function public.edge_unchecked_files(
  bucket text default null,
  file_name text default null,
  batch integer default 20
)
returns setof jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
           'bucket_id', o.bucket_id,
           'name', o.name,
           'mimetype', o.metadata ->> 'mimetype',
           'allowed_mime_types', to_jsonb(b.allowed_mime_types))
    from storage.objects o
    join storage.buckets b on b.id = o.bucket_id
   where o.bucket_id in ('licenses', 'flight-documents')
     and (edge_unchecked_files.bucket is null or o.bucket_id = edge_unchecked_files.bucket)
     and (edge_unchecked_files.file_name is null or o.name = edge_unchecked_files.file_name)
     and not exists (
       select 1 from internal.upload_checks c where c.bucket_id = o.bucket_id and c.name = o.name)
   order by o.created_at
   limit least(greatest(edge_unchecked_files.batch, 1), 100)
$$;

-- check-upload: records a verdict. A refused file refuses the pending bookings that use it
-- (status `rejected` with a reason in the agency's words, as staff write them: the customer is
-- told as for any refusal, by notification or mail); the function then removes the file through
-- the Storage API. Returns the refused bookings' ids.
create or replace function public.edge_record_file_check(
  bucket text,
  file_name text,
  verdict text,
  detected_type text default null,
  reason text default null
)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  refused jsonb := '[]'::jsonb;
begin
  insert into internal.upload_checks as c (bucket_id, name, verdict, detected_type, reason)
  values (bucket, file_name, verdict, detected_type, reason)
  on conflict (bucket_id, name) do update
    set verdict = excluded.verdict, detected_type = excluded.detected_type,
        reason = excluded.reason, checked_at = now();
  if verdict = 'rejected' then
    with refused_bookings as (
      update public.bookings b
         set status = 'rejected',
             status_reason = 'Document refusé : le fichier envoyé n''est pas un PDF, JPEG, PNG ou WebP valide.'
       where b.status = 'pending'
         and ((bucket = 'licenses' and b.license_path = file_name)
           or (bucket = 'flight-documents' and b.flight_document_path = file_name))
      returning b.id
    )
    select coalesce(jsonb_agg(r.id), '[]'::jsonb) into refused from refused_bookings r;
  end if;
  return jsonb_build_object('verdict', verdict, 'refused_bookings', refused);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
create trigger mail_outbox_send
  after insert on internal.mail_outbox
  for each statement execute function internal.mail_outbox_webhook();

create trigger booking_files_check
  after insert on storage.objects
  for each row
  when (new.bucket_id in ('licenses', 'flight-documents'))
  execute function internal.booking_file_webhook();

create trigger booking_files_recheck
  after update on storage.objects
  for each row
  when (new.bucket_id in ('licenses', 'flight-documents')
    and (old.version is distinct from new.version
      or old.metadata ->> 'eTag' is distinct from new.metadata ->> 'eTag'))
  execute function internal.booking_file_webhook();

create trigger bookings_refuse_rejected_files
  before insert on public.bookings
  for each row execute function internal.require_checked_files();

create trigger bookings_require_checked_files
  before update of status on public.bookings
  for each row
  when (old.status = 'pending' and new.status = 'reserved')
  execute function internal.require_checked_files();

-- ---------------------------------------------------------------------------------------------
-- Schedules (pg_cron): one `cron.schedule` per job; it replaces a job of the same name.
-- ---------------------------------------------------------------------------------------------
select cron.schedule('send-mail-sweep', '* * * * *',
  $$select internal.invoke_edge_function('send-mail', '{"type": "SWEEP"}')$$);
select cron.schedule('check-upload-sweep', '* * * * *',
  $$select internal.invoke_edge_function('check-upload', '{"type": "SWEEP"}')$$);

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on internal.upload_checks from public, anon, authenticated;

revoke all on function internal.invoke_edge_function(text, jsonb) from public;
revoke all on function internal.mail_outbox_webhook() from public;
revoke all on function internal.booking_file_webhook() from public;
revoke all on function internal.require_checked_files() from public;

revoke all on function public.edge_claim_mail(integer, integer) from public, anon, authenticated;
revoke all on function public.edge_settle_mail(bigint, text, text, boolean) from public, anon, authenticated;
revoke all on function public.edge_unchecked_files(text, text, integer) from public, anon, authenticated;
revoke all on function public.edge_record_file_check(text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.edge_claim_mail(integer, integer) to service_role;
grant execute on function public.edge_settle_mail(bigint, text, text, boolean) to service_role;
grant execute on function public.edge_unchecked_files(text, text, integer) to service_role;
grant execute on function public.edge_record_file_check(text, text, text, text, text) to service_role;
