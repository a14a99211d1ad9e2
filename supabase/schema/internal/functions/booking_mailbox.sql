-- function internal.booking_mailbox(uid uuid, guest_email text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.booking_mailbox(uid uuid, guest_email text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  return coalesce(
    internal.email_key(case when uid is null then guest_email
                            else (select u.email from auth.users u where u.id = uid) end),
    'account:' || uid::text);
end
$function$;

