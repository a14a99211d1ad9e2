-- function internal.push_urgency(kind text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.push_urgency(kind text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select case when kind in ('booking_accepted', 'booking_rejected', 'booking_cancelled',
                            'booking_refused', 'booking_expired')
    then 'high' else 'normal' end
$function$;

