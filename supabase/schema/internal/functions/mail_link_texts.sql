-- function internal.mail_link_texts(locale text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

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

