-- function internal.record_booking_source(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.record_booking_source()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  mailbox text := internal.booking_mailbox(new.user_id, new.guest_email);
begin
  insert into internal.booking_sources (booking_id, client_key, mailbox, domain, created_at)
  values (new.id, left(internal.client_address_key(), 64), mailbox, internal.mail_domain(mailbox),
    new.created_at)
  on conflict (booking_id) do nothing;
  return null;
end
$function$;

