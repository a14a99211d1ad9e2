-- function internal.booking_names_file(bucket text, file_name text, live_only boolean): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.booking_names_file(bucket text, file_name text, live_only boolean DEFAULT false)
 RETURNS boolean
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select exists (
    select 1
      from public.bookings b
     where ((bucket = 'licenses' and b.license_path = file_name)
         or (bucket = 'flight-documents' and b.flight_document_path = file_name))
       and (not live_only or b.status in ('pending', 'reserved', 'in_progress')))
$function$;

