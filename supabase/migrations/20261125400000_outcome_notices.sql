-- Every final outcome reaches the person (docs/decisions.md, "Outcomes"): a notification names
-- its booking by reference and carries staff's reason (rejection, cancellation) or a stable reason
-- code the app translates (an expiry, a refusal at sync); a signed-in customer also gets a mail
-- at the account's address for an acceptance, a rejection and a cancellation by staff, in the
-- booking's language, like a guest. The texts of the refusal-at-sync mail
-- (20261125400200_refused_bookings.sql) live here with the others.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
alter table public.notifications
  -- The booking's reference: the app names the booking even when this device does not know it,
  -- and a refusal at sync (no booking row: booking_id null) has nothing else.
  add column reference text,
  -- Staff's words (rejection, cancellation), shown as typed.
  add column reason text,
  -- A stable code the app translates (booking_expired: contact_not_confirmed; booking_refused:
  -- the refusal code, e.g. car_unavailable).
  add column reason_code text;

update public.notifications n
   set reference = b.reference
  from public.bookings b
 where b.id = n.booking_id and n.reference is null;

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table public.notifications
  add constraint notifications_reference_format
    check (reference ~ '^KR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$'),
  add constraint notifications_reason_length check (char_length(reason) <= 500),
  add constraint notifications_reason_code_format check (reason_code ~ '^[a-z][a-z_]{1,39}$'),
  add constraint notifications_names_a_booking check (booking_id is not null or reference is not null);

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- The words of the mails this file and the refusal at sync add, in one language (fr, en, ar;
-- anything else reads French); merged over internal.mail_texts by the functions that use them.
-- refused_<code>: the reason in words, after the "Reason: " label.
create or replace function internal.outcome_mail_texts(locale text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case locale
    when 'en' then jsonb_build_object(
      'my_bookings', 'Find this booking under "My bookings" in the app. To change or cancel it, '
        || 'contact the agency.',
      'booking_refused', 'Booking request not accepted',
      'booking_refused_body', 'Your booking request, sent from your phone when it was back online, '
        || 'could not be accepted. Nothing is booked and you owe nothing.',
      'refused_car_unavailable', 'another customer booked this car for these dates before your '
        || 'request reached us.',
      'refused_car_not_found', 'this car is no longer offered.',
      'refused_location_not_found', 'a pickup or return place you chose is no longer served.',
      'refused_unknown_extra', 'an option you chose is no longer offered.',
      'refused_unknown_insurance', 'an insurance option you chose is no longer offered.',
      'refused_dates_in_past', 'the pickup time had passed when your request reached us.',
      'refused_booking_too_far_ahead', 'the pickup date is further ahead than we take bookings.',
      'refused_licence_required', 'your driving licence did not reach us.',
      'refused_flight_document_required', 'your flight document did not reach us.',
      'refused_what_to_do', 'Choose another car or other dates and book again: {link}',
      'refused_what_to_do_no_link', 'Open Kiraa and book another car or other dates.')
    when 'ar' then jsonb_build_object(
      'my_bookings', 'تجد هذا الحجز في صفحة «حجوزاتي» في التطبيق. للتعديل أو الإلغاء، اتصل بالوكالة.',
      'booking_refused', 'لم يتم قبول طلب الحجز',
      'booking_refused_body', 'تعذر قبول طلب الحجز الذي أُرسل من هاتفك عند عودة الاتصال. '
        || 'لم يُحجز أي شيء ولا يترتب عليك أي مبلغ.',
      'refused_car_unavailable', 'حجز زبون آخر هذه السيارة في هذه التواريخ قبل وصول طلبك.',
      'refused_car_not_found', 'لم تعد هذه السيارة معروضة.',
      'refused_location_not_found', 'مكان الاستلام أو الإرجاع الذي اخترته لم يعد متاحا.',
      'refused_unknown_extra', 'أحد الخيارات التي اخترتها لم يعد معروضا.',
      'refused_unknown_insurance', 'أحد خيارات التأمين التي اخترتها لم يعد معروضا.',
      'refused_dates_in_past', 'كان موعد الاستلام قد فات عند وصول طلبك.',
      'refused_booking_too_far_ahead', 'تاريخ الاستلام أبعد من المدة التي نقبل الحجز فيها.',
      'refused_licence_required', 'لم تصلنا رخصة القيادة.',
      'refused_flight_document_required', 'لم تصلنا وثيقة الرحلة.',
      'refused_what_to_do', 'اختر سيارة أخرى أو تواريخ أخرى واحجز من جديد: {link}',
      'refused_what_to_do_no_link', 'افتح تطبيق كراء واحجز سيارة أخرى أو تواريخ أخرى.')
    else jsonb_build_object(
      'my_bookings', 'Retrouvez cette réservation dans « Mes réservations » de l''application. '
        || 'Pour la modifier ou l''annuler, contactez l''agence.',
      'booking_refused', 'Demande de réservation non retenue',
      'booking_refused_body', 'Votre demande de réservation, envoyée par votre téléphone quand il '
        || 'a retrouvé le réseau, n''a pas pu être acceptée. Rien n''est réservé et vous ne devez rien.',
      'refused_car_unavailable', 'un autre client a réservé cette voiture pour ces dates avant que '
        || 'votre demande nous parvienne.',
      'refused_car_not_found', 'cette voiture n''est plus proposée.',
      'refused_location_not_found', 'un lieu de prise en charge ou de retour choisi n''est plus desservi.',
      'refused_unknown_extra', 'une option choisie n''est plus proposée.',
      'refused_unknown_insurance', 'une assurance choisie n''est plus proposée.',
      'refused_dates_in_past', 'l''heure de prise en charge était passée quand votre demande nous '
        || 'est parvenue.',
      'refused_booking_too_far_ahead', 'la date de prise en charge est plus lointaine que ce que '
        || 'nous réservons.',
      'refused_licence_required', 'votre permis de conduire ne nous est pas parvenu.',
      'refused_flight_document_required', 'votre document de vol ne nous est pas parvenu.',
      'refused_what_to_do', 'Choisissez une autre voiture ou d''autres dates et réservez à nouveau : {link}',
      'refused_what_to_do_no_link', 'Ouvrez Kiraa et réservez une autre voiture ou d''autres dates.')
  end
$$;

-- The mail about a booking's outcome, in the booking's language (see 20261125200200_guest_mail:
-- what a mail to an unconfirmed address may hold). A signed-in customer's account address is
-- theirs, so their mails read like a confirmed guest's (car, times, places, total; no name line:
-- a customer has no guest name) and point to "My bookings" instead of the guest lookup.
create or replace function internal.guest_mail(b public.bookings, kind text)
returns table (subject text, body_text text)
language plpgsql
stable
set search_path = ''
as $$
declare
  t jsonb := internal.mail_texts(b.locale) || internal.outcome_mail_texts(b.locale);
  lang text := case when b.locale in ('fr', 'en', 'ar') then b.locale else 'fr' end;
  customer boolean := b.user_id is not null;
  confirmed boolean := b.contact_confirmed_at is not null or b.user_id is not null;
  reason text := case when kind <> 'booking_expired'
                      then internal.mail_safe_text(b.status_reason, 500) end;
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
    case when confirmed then (t ->> 'total') || b.total_dzd || (t ->> 'total_suffix') end,
    case when not customer and confirmed
          and nullif(internal.mail_safe_text(b.guest_name), '') is not null
      then (t ->> 'name') || '« ' || internal.mail_safe_text(b.guest_name) || ' »' end,
    '',
    case when customer then t ->> 'my_bookings' else t ->> 'find_booking' end,
    '',
    t ->> 'footer'
  );
  return next;
end
$$;

-- A signed-in customer's mail of `kind` about booking `b`, to the account's address (staff
-- decisions: never limited). True when written.
create or replace function internal.enqueue_customer_mail(b public.bookings, kind text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
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
$$;

-- Status change by anyone but the customer themself (staff, the service role, the expiry) → for
-- a signed-in customer, a notification naming the booking with staff's reason or the reason code,
-- and for the final outcomes (accepted, rejected, cancelled) a mail to the account; for a guest,
-- a mail. A customer's own cancellation writes nothing.
create or replace function internal.on_booking_status_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  kind text := internal.status_notification_type(new.status);
begin
  if kind is null then
    return null;
  end if;
  if new.user_id is not null then
    if new.user_id is distinct from auth.uid() then
      insert into public.notifications (user_id, booking_id, type, reference, reason, reason_code)
      values (new.user_id, new.id, kind, new.reference,
        case when new.status in ('rejected', 'cancelled') then nullif(trim(new.status_reason), '') end,
        case when new.status = 'expired' then new.status_reason end);
      if kind in ('booking_accepted', 'booking_rejected', 'booking_cancelled') then
        perform internal.enqueue_customer_mail(new, kind);
      end if;
    end if;
  else
    perform internal.enqueue_guest_mail(new, kind);
  end if;
  return null;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function internal.outcome_mail_texts(text) from public;
revoke all on function internal.enqueue_customer_mail(public.bookings, text) from public;
