-- function internal.guest_mail(b bookings, kind text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.guest_mail(b bookings, kind text)
 RETURNS TABLE(subject text, body_text text)
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  t jsonb := internal.mail_texts(b.locale) || internal.outcome_mail_texts(b.locale)
    || internal.mail_link_texts(b.locale);
  lang text := case when b.locale in ('fr', 'en', 'ar') then b.locale else 'fr' end;
  customer boolean := b.user_id is not null;
  confirmed boolean := b.contact_confirmed_at is not null or b.user_id is not null;
  closed boolean := b.status in ('rejected', 'cancelled', 'expired', 'completed');
  reason text := case when kind <> 'booking_expired'
                      then internal.mail_safe_text(b.status_reason, 500) end;
  link text := internal.booking_page_url(b);
  car_name text;
  pickup jsonb;
  dropoff jsonb;
  starts text := to_char(b.start_at at time zone 'Africa/Algiers', 'DD/MM/YYYY HH24:MI');
  ends text := to_char(b.end_at at time zone 'Africa/Algiers', 'DD/MM/YYYY HH24:MI');
begin
  if t ->> (kind || '_body') is null or kind = 'guest_confirmation' or kind = 'booking_refused' then
    return;
  end if;
  select c.name into car_name from public.cars c where c.id = b.car_id;
  select l.name into pickup from public.locations l where l.id = b.pickup_location_id;
  select l.name into dropoff from public.locations l where l.id = b.dropoff_location_id;

  subject := 'Kiraa · ' || (t ->> kind) || ' · ' || b.reference;
  body_text := concat_ws(E'\n',
    t ->> 'greeting',
    '',
    t ->> (kind || '_body'),
    case when nullif(reason, '') is not null then (t ->> 'reason') || reason end,
    (t ->> 'reference') || b.reference,
    case when confirmed then (t ->> 'car') || car_name end,
    case when confirmed
      then (t ->> 'pickup') || starts || (t ->> 'separator') || (pickup ->> lang) end,
    case when confirmed
      then (t ->> 'return') || ends || (t ->> 'separator') || (dropoff ->> lang) end,
    case when confirmed
      then (t ->> 'total') || internal.format_dzd(b.total_dzd, lang) || (t ->> 'total_suffix') end,
    case when not customer and confirmed
          and nullif(internal.mail_safe_text(b.guest_name), '') is not null
      then (t ->> 'name') || '« ' || internal.mail_safe_text(b.guest_name) || ' »' end,
    '',
    case
      when customer and closed then t ->> 'my_bookings_closed'
      when customer then t ->> 'my_bookings'
      when closed then t ->> 'find_closed'
      else t ->> 'find_booking' end,
    case when b.status in ('rejected', 'expired') then t ->> 'book_again' end,
    case when link is not null then replace(t ->> 'open_booking', '{link}', link) end,
    '',
    t ->> 'footer'
  );
  return next;
end
$function$;

