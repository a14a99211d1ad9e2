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
  lang text := case when d.locale in ('fr', 'en', 'ar') then d.locale else 'fr' end;
  site text := (select s.site_url from public.settings s where s.id = 1);
  car_name text := (select c.name from public.cars c where c.id = d.car_id);
  pickup jsonb := (select l.name from public.locations l where l.id = d.pickup_location_id);
  dropoff jsonb := (select l.name from public.locations l where l.id = d.dropoff_location_id);
  starts text := to_char(d.start_at at time zone 'Africa/Algiers', 'DD/MM/YYYY HH24:MI');
  ends text := to_char(d.end_at at time zone 'Africa/Algiers', 'DD/MM/YYYY HH24:MI');
begin
  subject := 'Kiraa · ' || (t ->> 'booking_refused') || ' · ' || d.reference;
  body_text := concat_ws(E'\n',
    t ->> 'greeting',
    '',
    t ->> 'booking_refused_body',
    (t ->> 'reason') || (t ->> ('refused_' || code)),
    (t ->> 'reference') || d.reference,
    case when car_name is not null then (t ->> 'car') || car_name end,
    case when starts is not null then (t ->> 'pickup') || starts
      || coalesce((t ->> 'separator') || (pickup ->> lang), '') end,
    case when ends is not null then (t ->> 'return') || ends
      || coalesce((t ->> 'separator') || (dropoff ->> lang), '') end,
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

