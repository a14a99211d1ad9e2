-- function internal.booking_mailbox(uid uuid, guest_email text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.booking_mailbox(uid uuid, guest_email text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  if uid is null then
    return internal.email_key(guest_email);
  end if;
  return coalesce(internal.email_key((select u.email from auth.users u where u.id = uid)),
    'account:' || uid::text);
end
$function$;

