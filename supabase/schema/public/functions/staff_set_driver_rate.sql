-- function public.staff_set_driver_rate(driver_per_day_dzd integer): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_set_driver_rate(driver_per_day_dzd integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  perform internal.check_price(staff_set_driver_rate.driver_per_day_dzd);
  update public.settings s set driver_per_day_dzd = staff_set_driver_rate.driver_per_day_dzd
   where s.id = 1;
  return jsonb_build_object('driver_per_day_dzd', staff_set_driver_rate.driver_per_day_dzd);
end
$function$;

grant execute on function public.staff_set_driver_rate(driver_per_day_dzd integer) to authenticated;
grant execute on function public.staff_set_driver_rate(driver_per_day_dzd integer) to service_role;
