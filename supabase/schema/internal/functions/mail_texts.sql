-- function internal.mail_texts(locale text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

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

