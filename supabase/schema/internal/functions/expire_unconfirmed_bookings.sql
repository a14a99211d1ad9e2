-- function internal.expire_unconfirmed_bookings(batch integer): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.expire_unconfirmed_bookings(batch integer DEFAULT 500)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  expired integer := internal.expire_lapsed_bookings(batch => greatest(coalesce(batch, 500), 1));
begin
  delete from internal.confirmation_failures f where f.failed_at < now() - interval '1 day';
  update internal.booking_sources src
     set client_key = null
    from public.bookings b
   where b.id = src.booking_id
     and src.client_key is not null
     and b.status <> 'pending'
     and b.updated_at < now() - interval '1 day';
  delete from internal.mail_dropped d where d.created_at < now() - interval '30 days';
  update public.booking_refusals r
     set client_key = null
   where r.client_key is not null and r.created_at < now() - interval '1 day';
  delete from public.booking_refusals r where r.created_at < now() - interval '30 days';
  delete from internal.guest_lookup_failures f where f.failed_at < now() - interval '1 day';
  delete from internal.guest_uploads u where u.created_at < now() - interval '1 day';
  return expired;
end
$function$;

grant execute on function internal.expire_unconfirmed_bookings(batch integer) to service_role;
