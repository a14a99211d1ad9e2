-- function internal.booking_holds_car(status text, confirm_by timestamp with time zone, contact_confirmed_at timestamp with time zone): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

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

