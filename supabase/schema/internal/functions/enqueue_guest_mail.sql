-- function internal.enqueue_guest_mail(b bookings, kind text, code text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.enqueue_guest_mail(b bookings, kind text, code text DEFAULT NULL::text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  m record;
begin
  if b.user_id is not null or b.guest_email is null then
    return false;
  end if;
  if kind = 'guest_confirmation' then
    select x.subject, x.body_text into m from internal.guest_confirmation_mail(b, code) x;
  else
    select x.subject, x.body_text into m from internal.guest_mail(b, kind) x;
  end if;
  if m.subject is null then
    return false;
  end if;
  return internal.enqueue_mail(b.guest_email, m.subject, m.body_text, b.id, kind, b.locale,
    kind in ('guest_confirmation', 'booking_expired'));
end
$function$;

