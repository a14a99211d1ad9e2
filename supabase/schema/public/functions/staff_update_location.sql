-- function public.staff_update_location(location_id uuid, delivery_fee_dzd integer, name jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_update_location(location_id uuid, delivery_fee_dzd integer, name jsonb DEFAULT NULL::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  r public.locations;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  perform internal.check_price(staff_update_location.delivery_fee_dzd);
  if staff_update_location.name is not null then
    perform internal.check_catalogue_name(staff_update_location.name);
  end if;
  update public.locations l
     set delivery_fee_dzd = staff_update_location.delivery_fee_dzd,
         name = coalesce(internal.trimmed_name(staff_update_location.name), l.name)
   where l.id = staff_update_location.location_id
  returning l.* into r;
  if not found then
    perform internal.fail('location_not_found', coalesce(staff_update_location.location_id::text, 'location_id'));
  end if;
  return to_jsonb(r);
end
$function$;

grant execute on function public.staff_update_location(location_id uuid, delivery_fee_dzd integer, name jsonb) to authenticated;
grant execute on function public.staff_update_location(location_id uuid, delivery_fee_dzd integer, name jsonb) to service_role;
