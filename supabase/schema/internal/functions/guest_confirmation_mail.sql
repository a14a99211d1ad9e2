-- function internal.guest_confirmation_mail(b bookings, code text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.guest_confirmation_mail(b bookings, code text)
 RETURNS TABLE(subject text, body_text text)
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  t jsonb := internal.mail_texts(b.locale);
  site text := (select s.site_url from public.settings s where s.id = 1);
  deadline text := to_char(b.confirm_by at time zone 'Africa/Algiers', 'DD/MM/YYYY HH24:MI');
begin
  subject := 'Kiraa · ' || (t ->> 'guest_confirmation') || ' · ' || b.reference;
  body_text := concat_ws(E'\n',
    t ->> 'greeting',
    '',
    t ->> 'guest_confirmation_body',
    '',
    (t ->> 'reference') || b.reference,
    (t ->> 'code') || code,
    case when site is not null
      then (t ->> 'link') || site || '/guest-booking?ref=' || b.reference || '&code=' || code
      else t ->> 'no_link' end,
    '',
    replace(t ->> 'deadline', '{deadline}', deadline),
    t ->> 'ignore',
    '',
    t ->> 'footer'
  );
  return next;
end
$function$;

