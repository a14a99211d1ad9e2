-- Booking mails that say what is true and lead somewhere (issue 20; docs/decisions.md, "Guest
-- mail"): a booking that is over (rejected, cancelled, expired, completed) no longer tells the
-- guest to "contact the agency to change or cancel it"; every outcome mail links to where the
-- booking is found (a guest: /guest-booking?find=<reference>, the lookup with the reference
-- filled in; a customer: /mybookings) when settings.site_url is set; the refused-at-sync mail
-- names the car and the dates; amounts are grouped ("12 500 DZD", "12,500 DZD" in English).

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- An amount of dinars as mails write it: thousands grouped with a no-break space (French,
-- Arabic) or a comma (English).
create or replace function internal.format_dzd(amount integer, locale text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when amount is null then ''
    else (case when amount < 0 then '-' else '' end) || regexp_replace(
      abs(amount)::text, '(\d)(?=(\d{3})+$)',
      case when locale = 'en' then '\1,' else E'\\1\u00a0' end, 'g')
  end
$$;

-- The words this migration adds to guest and customer mails, per language.
create or replace function internal.mail_link_texts(locale text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case locale
    when 'en' then jsonb_build_object(
      'find_closed', 'Find this booking with its reference on the "Find my booking" page.',
      'my_bookings_closed', 'Find this booking under "My bookings" in the app.',
      'book_again', 'For another car or other dates, make a new booking in the app.',
      'open_booking', 'Your booking: {link}')
    when 'ar' then jsonb_build_object(
      'find_closed', 'يمكنك العثور على هذا الحجز بمرجعه في صفحة «العثور على حجزي».',
      'my_bookings_closed', 'تجد هذا الحجز في صفحة «حجوزاتي» في التطبيق.',
      'book_again', 'لسيارة أخرى أو تواريخ أخرى، قدّم حجزًا جديدًا في التطبيق.',
      'open_booking', 'حجزك: {link}')
    else jsonb_build_object(
      'find_closed', 'Retrouvez cette réservation avec sa référence sur la page « Trouver ma '
        || 'réservation ».',
      'my_bookings_closed', 'Retrouvez cette réservation dans « Mes réservations » de l''application.',
      'book_again', 'Pour une autre voiture ou d''autres dates, faites une nouvelle réservation '
        || 'dans l''application.',
      'open_booking', 'Votre réservation : {link}')
  end
$$;

-- The page where a booking is found: a guest's lookup with the reference filled in, or a
-- customer's "My bookings". Null without settings.site_url.
create or replace function internal.booking_page_url(b public.bookings)
returns text
language sql
stable
set search_path = ''
as $$
  select case when s.site_url is null then null
    when b.user_id is null then s.site_url || '/guest-booking?find=' || b.reference
    else s.site_url || '/mybookings' end
    from public.settings s where s.id = 1
$$;

-- The mail about a booking's outcome, in the booking's language (20261125400000_outcome_notices
-- for what a mail to an unconfirmed address may hold). A booking that is over says where to find
-- it, not how to change it; a rejected or expired one says how to book again; amounts grouped;
-- the booking's page linked.
create or replace function internal.guest_mail(b public.bookings, kind text)
returns table (subject text, body_text text)
language plpgsql
stable
set search_path = ''
as $$
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
$$;

-- The mail of a booking refused when it reached the server: the reason, and now the car and the
-- dates it was for (the reference alone meant nothing to someone who made two requests).
create or replace function internal.refusal_mail(d internal.booking_draft, code text)
returns table (subject text, body_text text)
language plpgsql
stable
set search_path = ''
as $$
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
$$;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function internal.format_dzd(integer, text) from public;
revoke all on function internal.mail_link_texts(text) from public;
revoke all on function internal.booking_page_url(public.bookings) from public;
revoke all on function internal.guest_mail(public.bookings, text) from public;
revoke all on function internal.refusal_mail(internal.booking_draft, text) from public;
