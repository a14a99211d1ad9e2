-- function internal.enqueue_customer_mail(b bookings, kind text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.enqueue_customer_mail(b bookings, kind text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  to_email text;
  m record;
begin
  if b.user_id is null then
    return false;
  end if;
  select u.email into to_email from auth.users u where u.id = b.user_id;
  select x.subject, x.body_text into m from internal.guest_mail(b, kind) x;
  if to_email is null or m.subject is null then
    return false;
  end if;
  return internal.enqueue_mail(to_email, m.subject, m.body_text, b.id, kind, b.locale, false);
end
$function$;

