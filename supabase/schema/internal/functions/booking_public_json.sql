-- function internal.booking_public_json(b bookings): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.booking_public_json(b bookings)
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

