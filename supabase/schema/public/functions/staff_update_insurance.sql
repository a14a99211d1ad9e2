-- function public.staff_update_insurance(code text, price_dzd_per_day integer, name jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_update_insurance(code text, price_dzd_per_day integer, name jsonb DEFAULT NULL::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  r public.insurance_options;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  perform internal.check_price(staff_update_insurance.price_dzd_per_day);
  if staff_update_insurance.name is not null then
    perform internal.check_catalogue_name(staff_update_insurance.name);
  end if;
  if exists (select from public.insurance_options i
              where i.code = staff_update_insurance.code and i.included)
     and staff_update_insurance.price_dzd_per_day <> 0 then
    perform internal.fail('invalid_price', 'an included option is free');
  end if;
  update public.insurance_options i
     set price_dzd_per_day = staff_update_insurance.price_dzd_per_day,
         name = coalesce(internal.trimmed_name(staff_update_insurance.name), i.name)
   where i.code = staff_update_insurance.code
  returning i.* into r;
  if not found then
    perform internal.fail('unknown_insurance', coalesce(staff_update_insurance.code, 'code'));
  end if;
  return to_jsonb(r);
end
$function$;

grant execute on function public.staff_update_insurance(code text, price_dzd_per_day integer, name jsonb) to authenticated;
grant execute on function public.staff_update_insurance(code text, price_dzd_per_day integer, name jsonb) to service_role;
