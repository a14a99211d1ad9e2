-- The helpers on the path of every booking, lookup, confirmation and mail, in PL/pgSQL instead of
-- SQL: same bodies, same answers. A SQL function with a `SET search_path` clause is never inlined,
-- and PostgreSQL 15 (and 17) keeps no plan for it between transactions: each booking parsed and
-- planned them all again. PL/pgSQL keeps its plans for the connection's life, and PostgREST's
-- pool keeps connections. Measured on create_booking alone (one request at a time, PostgreSQL 15,
-- pg_stat_user_functions): these functions' own time was ≈ 1.7 ms of the call's 5.1 ms, of which
-- booking_public_json 0.59, is_open_at and booking_mailbox 0.24 each (docs/database.md, "Bookings
-- at scale"). A new helper follows the same rule (docs/database.md).

CREATE OR REPLACE FUNCTION internal.booking_public_json(b public.bookings)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  return jsonb_build_object(
    'id', b.id,
    'reference', b.reference,
    'user_id', b.user_id,
    'car_id', b.car_id,
    'start_at', b.start_at,
    'end_at', b.end_at,
    'pickup_location_id', b.pickup_location_id,
    'dropoff_location_id', b.dropoff_location_id,
    'driver_option', b.driver_option,
    'from_abroad', b.from_abroad,
    'extras', b.extras,
    'insurance', b.insurance,
    'payment_method', b.payment_method,
    'payment_status', b.payment_status,
    'price', b.price,
    'total_dzd', b.total_dzd,
    'status', b.status,
    'status_reason', b.status_reason,
    'locale', b.locale,
    'confirm_by', b.confirm_by,
    'contact_confirmed_at', b.contact_confirmed_at,
    'code_mail_sent', (select c.mail_sent from internal.guest_confirmations c where c.booking_id = b.id),
    'created_at', b.created_at,
    'updated_at', b.updated_at
  );
end
$function$;

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

CREATE OR REPLACE FUNCTION internal.booking_holds_car(status text, confirm_by timestamp with time zone, contact_confirmed_at timestamp with time zone)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  return status in ('reserved', 'in_progress')
    or (status = 'pending' and (confirm_by is null or contact_confirmed_at is not null));
end
$function$;

CREATE OR REPLACE FUNCTION internal.days_within(starts timestamp with time zone, ends timestamp with time zone, horizon_days integer)
 RETURNS numeric
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  return greatest(0, extract(epoch from (
    least(ends, now() + make_interval(days => horizon_days)) - greatest(starts, now())
  )))::numeric / 86400;
end
$function$;

CREATE OR REPLACE FUNCTION internal.is_open_at(hours jsonb, closed_dates date[], at timestamp with time zone)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
declare
  in_algiers timestamp := is_open_at.at at time zone 'Africa/Algiers';
  open_close jsonb := hours -> extract(dow from in_algiers)::integer;
begin
  return not (in_algiers::date = any (coalesce(closed_dates, '{}')))
     and coalesce(
       jsonb_typeof(open_close) = 'array'
       and extract(epoch from in_algiers::time)
         between (open_close ->> 0)::numeric * 60 and (open_close ->> 1)::numeric * 60,
       false);
end
$function$;

CREATE OR REPLACE FUNCTION internal.is_mailable_address(value text)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  return coalesce(
    char_length(value) <= internal.app_limit('email')
      and value ~ '^[A-Za-z0-9!#$%&''*+/=?^_`{|}~.-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$',
    false);
end
$function$;

CREATE OR REPLACE FUNCTION internal.is_private_mail_domain(domain text)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  return domain is not null
     and not exists (select from internal.mail_providers m where m.domain = is_private_mail_domain.domain);
end
$function$;

CREATE OR REPLACE FUNCTION internal.mail_domain(mailbox text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  return nullif(split_part(lower(trim(coalesce(mailbox, ''))), '@', 2), '');
end
$function$;

CREATE OR REPLACE FUNCTION internal.mail_texts(locale text)
 RETURNS jsonb
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  return case locale
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
      'deadline', 'The car is yours once you confirm, if nobody has booked it first. Without a '
        || 'confirmation before {deadline} (Algiers time), the request is cancelled.',
      'ignore', 'If you did not make this request, ignore this mail: nothing will be booked.',
      'booking_received', 'Booking saved',
      'booking_received_body', 'Your email address is confirmed. Our team is looking at your '
        || 'request and will answer shortly.',
      'booking_accepted', 'Booking accepted',
      'booking_accepted_body', 'Good news: your booking is confirmed. The car is waiting for you.',
      'booking_rejected', 'Booking declined by the agency',
      'booking_rejected_body', 'We are sorry: your booking could not be accepted.',
      'booking_started', 'Rental in progress',
      'booking_started_body', 'Your rental has started. Have a good trip!',
      'booking_completed', 'Rental completed',
      'booking_completed_body', 'Your rental is complete. Thank you for choosing Kiraa!',
      'booking_cancelled', 'Booking cancelled',
      'booking_cancelled_body', 'Your booking has been cancelled.',
      'booking_expired', 'Booking expired',
      'booking_expired_body', 'Your booking request has expired: the email address was not '
        || 'confirmed in time. You can make a new request in the app.')
    when 'ar' then jsonb_build_object(
      'greeting', 'مرحبا،',
      'footer', 'كراء · بتوقيت الجزائر (UTC+1)',
      'find_booking', 'يمكنك العثور على حجزك بمرجعه في صفحة «العثور على حجزي». '
        || 'للتعديل أو الإلغاء، اتصل بالوكالة.',
      'reference', 'المرجع: ', 'car', 'السيارة: ', 'pickup', 'الاستلام: ', 'return', 'الإرجاع: ',
      'total', 'المجموع: ', 'total_suffix', ' دج، نقدا عند الاستلام', 'reason', 'السبب: ',
      'name', 'الاسم المقدم عند الحجز: ', 'separator', '، ',
      'code', 'رمز التأكيد: ', 'link', 'الرابط: ',
      'guest_confirmation', 'أكّد بريدك الإلكتروني',
      'guest_confirmation_body', 'طُلب حجز في كراء بعنوان البريد الإلكتروني هذا. '
        || 'لتأكيده، أدخل هذا الرمز في التطبيق أو افتح الرابط أدناه.',
      'no_link', 'افتح تطبيق كراء، ثم صفحة «العثور على حجزي»، وأدخل المرجع والرمز.',
      'deadline', 'تُحجز لك السيارة عند التأكيد، إن لم يحجزها أحد قبلك. إذا لم يتم التأكيد قبل '
        || '{deadline} (بتوقيت الجزائر)، يُلغى الطلب.',
      'ignore', 'إذا لم تكن صاحب هذا الطلب، تجاهل هذه الرسالة: لن يُحجز أي شيء.',
      'booking_received', 'تم تسجيل الحجز',
      'booking_received_body', 'تم تأكيد بريدك الإلكتروني. يدرس فريقنا طلبك وسيرد عليك في أقرب وقت.',
      'booking_accepted', 'تم قبول الحجز',
      'booking_accepted_body', 'خبر سار: تم تأكيد حجزك. السيارة في انتظارك.',
      'booking_rejected', 'رفضت الوكالة الحجز',
      'booking_rejected_body', 'نأسف، تعذر قبول حجزك.',
      'booking_started', 'الكراء جارٍ',
      'booking_started_body', 'بدأت فترة الكراء. رحلة سعيدة!',
      'booking_completed', 'انتهى الكراء',
      'booking_completed_body', 'انتهت فترة الكراء. شكرا لاختيارك كراء!',
      'booking_cancelled', 'تم إلغاء الحجز',
      'booking_cancelled_body', 'تم إلغاء حجزك.',
      'booking_expired', 'انتهت صلاحية الحجز',
      'booking_expired_body', 'انتهت صلاحية طلب الحجز: لم يتم تأكيد البريد الإلكتروني في الوقت '
        || 'المحدد. يمكنك تقديم طلب جديد في التطبيق.')
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
      'deadline', 'La voiture vous est réservée dès votre confirmation, si personne ne l''a réservée '
        || 'avant vous. Sans confirmation avant le {deadline} (heure d''Alger), la demande est '
        || 'annulée.',
      'ignore', 'Si vous n''êtes pas à l''origine de cette demande, ignorez ce message : rien ne '
        || 'sera réservé.',
      'booking_received', 'Réservation enregistrée',
      'booking_received_body', 'Votre adresse e-mail est confirmée. Notre équipe étudie votre '
        || 'demande et vous répond au plus vite.',
      'booking_accepted', 'Réservation acceptée',
      'booking_accepted_body', 'Bonne nouvelle : votre réservation est confirmée. La voiture vous attend.',
      'booking_rejected', 'Réservation refusée par l’agence',
      'booking_rejected_body', 'Nous sommes désolés : votre réservation n''a pas pu être acceptée.',
      'booking_started', 'Location en cours',
      'booking_started_body', 'Votre location a commencé. Bonne route !',
      'booking_completed', 'Location terminée',
      'booking_completed_body', 'Votre location est terminée. Merci d''avoir choisi Kiraa !',
      'booking_cancelled', 'Réservation annulée',
      'booking_cancelled_body', 'Votre réservation a été annulée.',
      'booking_expired', 'Réservation expirée',
      'booking_expired_body', 'Votre demande de réservation a expiré : l''adresse e-mail n''a pas '
        || 'été confirmée à temps. Vous pouvez refaire une demande dans l''application.')
  end;
end
$function$;

CREATE OR REPLACE FUNCTION internal.mail_link_texts(locale text)
 RETURNS jsonb
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  return case locale
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
  end;
end
$function$;

CREATE OR REPLACE FUNCTION internal.outcome_mail_texts(locale text)
 RETURNS jsonb
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  return case locale
    when 'en' then jsonb_build_object(
      'my_bookings', 'Find this booking under "My bookings" in the app. To change or cancel it, '
        || 'contact the agency.',
      'booking_refused', 'Booking refused by the server',
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
      'booking_refused', 'رفض الخادم الحجز',
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
      'booking_refused', 'Réservation refusée par le serveur',
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
  end;
end
$function$;

CREATE OR REPLACE FUNCTION internal.new_confirmation_code()
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  return lpad(((('x' || encode(extensions.gen_random_bytes(6), 'hex'))::bit(48)::bigint)
    % 100000000)::text, 8, '0');
end
$function$;

CREATE OR REPLACE FUNCTION internal.confirmation_code_hash(booking_id uuid, code text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  return encode(extensions.digest(booking_id::text || ':' || code, 'sha256'), 'hex');
end
$function$;

CREATE OR REPLACE FUNCTION internal.booking_page_url(b public.bookings)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  return (
    select case when s.site_url is null then null
      when b.user_id is null then s.site_url || '/guest-booking?find=' || b.reference
      else s.site_url || '/mybookings' end
      from public.settings s where s.id = 1
  );
end
$function$;

CREATE OR REPLACE FUNCTION internal.format_dzd(amount integer, locale text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  return case when amount is null then ''
    else (case when amount < 0 then '-' else '' end) || regexp_replace(
      abs(amount)::text, '(\d)(?=(\d{3})+$)',
      case when locale = 'en' then '\1,' else E'\\1\u00a0' end, 'g')
  end;
end
$function$;

CREATE OR REPLACE FUNCTION internal.normalize_reference(value text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  return (
    select case
      when s ~ '^[0-9A-HJKMNP-TV-Z]{8}$' then 'KR-' || left(s, 4) || '-' || right(s, 4)
    end
    from (
      select translate(regexp_replace(r, '^KR', ''), 'ILO', '110') as s
      from (select regexp_replace(upper(coalesce(value, '')), '[\s_.\-]', '', 'g') as r) x
    ) y
  );
end
$function$;

CREATE OR REPLACE FUNCTION public.is_admin()
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return coalesce((select auth.jwt() ->> 'aal'), 'aal1') = 'aal2'
     and coalesce(
       (select p.role = 'admin' from public.profiles p where p.id = auth.uid()),
       false
     );
end
$function$;
