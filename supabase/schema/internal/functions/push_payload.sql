-- function internal.push_payload(kind text, audience text, booking_id uuid, reference text, reason text, reason_code text, notification_id uuid, locale text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.push_payload(kind text, audience text, booking_id uuid, reference text, reason text, reason_code text, notification_id uuid, locale text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select jsonb_build_object(
    'v', 1,
    'type', kind,
    'audience', audience,
    'booking_id', booking_id,
    'reference', reference,
    'reason', reason,
    'reason_code', reason_code,
    'notification_id', notification_id,
    'locale', locale,
    'url', case
      when audience = 'guest' then '/booking-success?id=' || booking_id::text
      when booking_id is not null then '/mybookings?booking=' || booking_id::text
      else '/mybookings' end,
    'at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
$function$;

