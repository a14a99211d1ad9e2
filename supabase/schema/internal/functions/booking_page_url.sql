-- function internal.booking_page_url(b bookings): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.booking_page_url(b bookings)
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

