-- Mail that cannot be turned against people (docs/decisions.md, "Guest mail"): one language per
-- mail (the booking's locale), nothing a requester typed in a mail to an address nobody has
-- confirmed, names of confirmed guests cleaned and shown as a quoted field (never as the agency's
-- words, never as a link), no free text ever, and a limit per address on the mails a visitor can
-- cause. Everything is written into internal.mail_outbox, which the mail sender sends.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
alter table internal.mail_outbox
  -- What the mail is (guest_confirmation, booking_received, booking_accepted, …): for limits,
  -- operations and the sender's logs.
  add column kind text,
  add column locale text;

-- Mails not written because the address had its share (or is not one we mail); kept 30 days.
create table internal.mail_dropped (
  id bigint generated always as identity primary key,
  to_key text not null,
  kind text not null,
  booking_id uuid,
  reason text not null,
  created_at timestamptz not null default now()
);

comment on table internal.mail_dropped is
  'Mails not sent because their address reached its limit (reason rate_limited) or is not mailable.';

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table internal.mail_outbox
  add constraint mail_outbox_locale_known check (locale in ('fr', 'en', 'ar')),
  add constraint mail_outbox_kind_format check (kind ~ '^[a-z][a-z_]{1,39}$');

alter table internal.mail_dropped
  add constraint mail_dropped_reason_known check (reason in ('rate_limited', 'unsafe_address'));

-- The sender, when it writes rows, evaluates email_key (granted to service_role in
-- 20261125200100_booking_holds.sql).
create index mail_outbox_to_key_created_at_idx
  on internal.mail_outbox (internal.email_key(to_email), created_at);
create index mail_dropped_created_at_idx on internal.mail_dropped (created_at);

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- An address we send mail to: one `@`, a plain ASCII local part and domain (what the app's form
-- accepts), nothing that could add a recipient or a header.
create or replace function internal.is_mailable_address(value text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(
    char_length(value) <= 254
      and value ~ '^[A-Za-z0-9!#$%&''*+/=?^_`{|}~.-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$',
    false)
$$;

-- The words of guest mails in one language (fr, en, ar; anything else reads French).
create or replace function internal.mail_texts(locale text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case locale
    when 'en' then jsonb_build_object(
      'greeting', 'Hello,',
      'footer', 'Kiraa · Algiers time (UTC+1)',
      'find_booking', 'Find your booking with its reference on the "Find my booking" page. '
        || 'To change or cancel it, contact the agency.',
      'reference', 'Reference: ', 'car', 'Car: ', 'pickup', 'Pickup: ', 'return', 'Return: ',
      'total', 'Total: ', 'total_suffix', ' DZD, cash at pickup', 'reason', 'Reason: ',
      'name', 'Name given when booking: ', 'separator', ', ',
      'code', 'Confirmation code: ', 'link', 'Link: ',
      'guest_confirmation', 'Confirm your email address',
      'guest_confirmation_body', 'A Kiraa booking request was made with this email address. '
        || 'To confirm it, type this code in the app or open the link below.',
      'no_link', 'Open Kiraa, go to the "Find my booking" page and type the reference and the code.',
      'deadline', 'Without a confirmation before {deadline} (Algiers time), the request is '
        || 'cancelled and the car released.',
      'ignore', 'If you did not make this request, ignore this mail: nothing will be booked.',
      'booking_received', 'Booking request received',
      'booking_received_body', 'Your email address is confirmed. Our team is looking at your '
        || 'request and will answer shortly.',
      'booking_accepted', 'Booking confirmed',
      'booking_accepted_body', 'Good news: your booking is confirmed. The car is waiting for you.',
      'booking_rejected', 'Booking declined',
      'booking_rejected_body', 'We are sorry: your booking could not be accepted.',
      'booking_started', 'Rental started',
      'booking_started_body', 'Your rental has started. Have a good trip!',
      'booking_completed', 'Rental completed',
      'booking_completed_body', 'Your rental is complete. Thank you for choosing Kiraa!',
      'booking_cancelled', 'Booking cancelled',
      'booking_cancelled_body', 'Your booking has been cancelled.',
      'booking_expired', 'Booking request expired',
      'booking_expired_body', 'Your booking request has expired: the email address was not '
        || 'confirmed in time, and the car has been released. You can make a new request in the app.')
    when 'ar' then jsonb_build_object(
      'greeting', 'مرحبا،',
      'footer', 'كراء · بتوقيت الجزائر (UTC+1)',
      'find_booking', 'يمكنك العثور على حجزك بمرجعه في صفحة «العثور على حجزي». '
        || 'للتعديل أو الإلغاء، اتصل بالوكالة.',
      'reference', 'المرجع: ', 'car', 'السيارة: ', 'pickup', 'الاستلام: ', 'return', 'الإرجاع: ',
      'total', 'المجموع: ', 'total_suffix', ' دج، نقدا عند الاستلام', 'reason', 'السبب: ',
      'name', 'الاسم المقدم عند الحجز: ', 'separator', '، ',
      'code', 'رمز التأكيد: ', 'link', 'الرابط: ',
      'guest_confirmation', 'أكد عنوان بريدك الإلكتروني',
      'guest_confirmation_body', 'طُلب حجز في كراء بعنوان البريد الإلكتروني هذا. '
        || 'لتأكيده، أدخل هذا الرمز في التطبيق أو افتح الرابط أدناه.',
      'no_link', 'افتح تطبيق كراء، ثم صفحة «العثور على حجزي»، وأدخل المرجع والرمز.',
      'deadline', 'إذا لم يتم التأكيد قبل {deadline} (بتوقيت الجزائر)، يُلغى الطلب وتُحرَّر السيارة.',
      'ignore', 'إذا لم تكن صاحب هذا الطلب، تجاهل هذه الرسالة: لن يُحجز أي شيء.',
      'booking_received', 'تم استلام طلب الحجز',
      'booking_received_body', 'تم تأكيد بريدك الإلكتروني. يدرس فريقنا طلبك وسيرد عليك في أقرب وقت.',
      'booking_accepted', 'تم تأكيد الحجز',
      'booking_accepted_body', 'خبر سار: تم تأكيد حجزك. السيارة في انتظارك.',
      'booking_rejected', 'تم رفض الحجز',
      'booking_rejected_body', 'نأسف، تعذر قبول حجزك.',
      'booking_started', 'بدأت فترة الكراء',
      'booking_started_body', 'بدأت فترة الكراء. رحلة سعيدة!',
      'booking_completed', 'انتهت فترة الكراء',
      'booking_completed_body', 'انتهت فترة الكراء. شكرا لاختيارك كراء!',
      'booking_cancelled', 'تم إلغاء الحجز',
      'booking_cancelled_body', 'تم إلغاء حجزك.',
      'booking_expired', 'انتهت صلاحية طلب الحجز',
      'booking_expired_body', 'انتهت صلاحية طلب الحجز: لم يتم تأكيد البريد الإلكتروني في الوقت '
        || 'المحدد، وتم تحرير السيارة. يمكنك تقديم طلب جديد في التطبيق.')
    else jsonb_build_object(
      'greeting', 'Bonjour,',
      'footer', 'Kiraa · heure d''Alger (UTC+1)',
      'find_booking', 'Retrouvez votre réservation avec sa référence sur la page « Trouver ma '
        || 'réservation ». Pour la modifier ou l''annuler, contactez l''agence.',
      'reference', 'Référence : ', 'car', 'Voiture : ', 'pickup', 'Prise en charge : ',
      'return', 'Retour : ', 'total', 'Total : ',
      'total_suffix', ' DZD, en espèces à la prise en charge', 'reason', 'Motif : ',
      'name', 'Nom indiqué lors de la réservation : ', 'separator', ', ',
      'code', 'Code de confirmation : ', 'link', 'Lien : ',
      'guest_confirmation', 'Confirmez votre adresse e-mail',
      'guest_confirmation_body', 'Une demande de réservation Kiraa a été faite avec cette adresse '
        || 'e-mail. Pour la confirmer, saisissez ce code dans l''application ou ouvrez le lien '
        || 'ci-dessous.',
      'no_link', 'Ouvrez Kiraa, page « Trouver ma réservation », et saisissez la référence et le code.',
      'deadline', 'Sans confirmation avant le {deadline} (heure d''Alger), la demande est annulée et '
        || 'la voiture libérée.',
      'ignore', 'Si vous n''êtes pas à l''origine de cette demande, ignorez ce message : rien ne '
        || 'sera réservé.',
      'booking_received', 'Demande de réservation reçue',
      'booking_received_body', 'Votre adresse e-mail est confirmée. Notre équipe étudie votre '
        || 'demande et vous répond au plus vite.',
      'booking_accepted', 'Réservation confirmée',
      'booking_accepted_body', 'Bonne nouvelle : votre réservation est confirmée. La voiture vous attend.',
      'booking_rejected', 'Réservation refusée',
      'booking_rejected_body', 'Nous sommes désolés : votre réservation n''a pas pu être acceptée.',
      'booking_started', 'Location commencée',
      'booking_started_body', 'Votre location a commencé. Bonne route !',
      'booking_completed', 'Location terminée',
      'booking_completed_body', 'Votre location est terminée. Merci d''avoir choisi Kiraa !',
      'booking_cancelled', 'Réservation annulée',
      'booking_cancelled_body', 'Votre réservation a été annulée.',
      'booking_expired', 'Demande de réservation expirée',
      'booking_expired_body', 'Votre demande de réservation a expiré : l''adresse e-mail n''a pas '
        || 'été confirmée à temps et la voiture a été libérée. Vous pouvez refaire une demande '
        || 'dans l''application.')
  end
$$;

-- The mail a guest receives about their booking, in the booking's language. `kind`:
-- booking_received (the contact was just confirmed), booking_accepted, booking_rejected,
-- booking_started, booking_completed, booking_cancelled, booking_expired. To an address nobody
-- has confirmed, only the agency's words, the reference and staff's reason; to a confirmed one,
-- also the car, times (Algiers), places, total and the name the guest gave, cleaned and quoted
-- on a line of its own. Free text the guest wrote (requests) never reaches a mail.
create or replace function internal.guest_mail(b public.bookings, kind text)
returns table (subject text, body_text text)
language plpgsql
stable
set search_path = ''
as $$
declare
  t jsonb := internal.mail_texts(b.locale);
  lang text := case when b.locale in ('fr', 'en', 'ar') then b.locale else 'fr' end;
  confirmed boolean := b.contact_confirmed_at is not null;
  reason text := case when kind <> 'booking_expired'
                      then internal.mail_safe_text(b.status_reason, 500) end;
  car_name text;
  pickup jsonb;
  dropoff jsonb;
  starts text := to_char(b.start_at at time zone 'Africa/Algiers', 'DD/MM/YYYY HH24:MI');
  ends text := to_char(b.end_at at time zone 'Africa/Algiers', 'DD/MM/YYYY HH24:MI');
begin
  if t ->> kind is null or kind = 'guest_confirmation' then
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
    case when confirmed and nullif(internal.mail_safe_text(b.guest_name), '') is not null
      then (t ->> 'name') || '« ' || internal.mail_safe_text(b.guest_name) || ' »' end,
    '',
    t ->> 'find_booking',
    '',
    t ->> 'footer'
  );
  return next;
end
$$;

-- The mail with the confirmation code of a new guest booking: to an address nobody has
-- confirmed yet, so only the agency's words, the reference, the code, the link
-- ({site_url}/guest-booking?ref=<reference>&code=<code>) and the deadline.
create or replace function internal.guest_confirmation_mail(b public.bookings, code text)
returns table (subject text, body_text text)
language plpgsql
stable
set search_path = ''
as $$
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
$$;

-- Writes a mail into the outbox, unless its address is not mailable or, for a mail a visitor
-- can cause (`limited`: confirmation codes, expiry notices), the address already had its share
-- of mails in the last hour or day (settings.max_mails_per_address_hour / _day; every mail to the
-- address counts). A mail not written is logged in internal.mail_dropped. True when written.
create or replace function internal.enqueue_mail(
  to_email text,
  subject text,
  body_text text,
  booking_id uuid,
  kind text,
  locale text,
  limited boolean
)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  to_key text := internal.email_key(enqueue_mail.to_email);
  per_hour integer;
  per_day integer;
  last_hour integer;
  last_day integer;
begin
  if not internal.is_mailable_address(enqueue_mail.to_email) then
    insert into internal.mail_dropped (to_key, kind, booking_id, reason)
    values (coalesce(to_key, ''), enqueue_mail.kind, enqueue_mail.booking_id, 'unsafe_address');
    return false;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('mail:' || to_key, 0));
  if limited then
    select coalesce(s.max_mails_per_address_hour, 5), coalesce(s.max_mails_per_address_day, 10)
      into per_hour, per_day
      from public.settings s where s.id = 1;
    select count(*) filter (where o.created_at > now() - interval '1 hour'), count(*)
      into last_hour, last_day
      from internal.mail_outbox o
     where internal.email_key(o.to_email) = to_key
       and o.created_at > now() - interval '1 day';
    if last_hour >= coalesce(per_hour, 5) or last_day >= coalesce(per_day, 10) then
      insert into internal.mail_dropped (to_key, kind, booking_id, reason)
      values (to_key, enqueue_mail.kind, enqueue_mail.booking_id, 'rate_limited');
      return false;
    end if;
  end if;
  insert into internal.mail_outbox (to_email, subject, body_text, booking_id, kind, locale)
  values (enqueue_mail.to_email, enqueue_mail.subject, enqueue_mail.body_text,
    enqueue_mail.booking_id, enqueue_mail.kind, enqueue_mail.locale);
  return true;
end
$$;

-- A guest booking's mail of `kind` (see guest_mail; `guest_confirmation` with its `code`) into
-- the outbox, limited when a visitor can cause it. True when written.
create or replace function internal.enqueue_guest_mail(b public.bookings, kind text, code text default null)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
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
$$;

-- Status change by anyone but the customer themself (staff, the service role, the expiry) → a
-- notification for a signed-in customer, a mail for a guest. A customer's own cancellation
-- writes nothing.
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
      insert into public.notifications (user_id, booking_id, type)
      values (new.user_id, new.id, kind);
    end if;
  else
    perform internal.enqueue_guest_mail(new, kind);
  end if;
  return null;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
-- A new guest booking's mail is now the confirmation code, written by create_booking (which alone
-- knows the code); the old "request received" mail goes once the contact is confirmed.
drop trigger bookings_mail_guest_on_create on public.bookings;
drop function internal.on_booking_created();

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
alter table internal.mail_dropped enable row level security;

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on table internal.mail_dropped from public;

revoke all on function internal.is_mailable_address(text) from public;
revoke all on function internal.mail_texts(text) from public;
revoke all on function internal.guest_mail(public.bookings, text) from public;
revoke all on function internal.guest_confirmation_mail(public.bookings, text) from public;
revoke all on function internal.enqueue_mail(text, text, text, uuid, text, text, boolean) from public;
revoke all on function internal.enqueue_guest_mail(public.bookings, text, text) from public;
