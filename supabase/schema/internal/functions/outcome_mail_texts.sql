-- function internal.outcome_mail_texts(locale text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

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

