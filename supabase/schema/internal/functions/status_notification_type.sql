-- function internal.status_notification_type(status text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.status_notification_type(status text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select case status
    when 'reserved' then 'booking_accepted'
    when 'rejected' then 'booking_rejected'
    when 'in_progress' then 'booking_started'
    when 'completed' then 'booking_completed'
    when 'cancelled' then 'booking_cancelled'
    when 'expired' then 'booking_expired'
  end
$function$;

