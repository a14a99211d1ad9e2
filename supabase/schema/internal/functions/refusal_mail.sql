-- function internal.refusal_mail(d internal.booking_draft, code text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.refusal_mail(d internal.booking_draft, code text)
 RETURNS TABLE(subject text, body_text text)
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  t jsonb := internal.mail_texts(d.locale) || internal.outcome_mail_texts(d.locale);
  site text := (select s.site_url from public.settings s where s.id = 1);
begin
  subject := 'Kiraa · ' || (t ->> 'booking_refused') || ' · ' || d.reference;
  body_text := concat_ws(E'\n',
    t ->> 'greeting',
    '',
    t ->> 'booking_refused_body',
    (t ->> 'reason') || (t ->> ('refused_' || code)),
    (t ->> 'reference') || d.reference,
    '',
    case when site is not null
      then replace(t ->> 'refused_what_to_do', '{link}', site || '/cars')
      else t ->> 'refused_what_to_do_no_link' end,
    '',
    t ->> 'footer'
  );
  return next;
end
$function$;

