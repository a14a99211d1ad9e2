-- function public.staff_update_extra(code text, price_dzd integer, name jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_update_extra(code text, price_dzd integer, name jsonb DEFAULT NULL::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  r public.extras;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  perform internal.check_price(staff_update_extra.price_dzd);
  if staff_update_extra.name is not null then
    perform internal.check_catalogue_name(staff_update_extra.name);
  end if;
  update public.extras e
     set price_dzd = staff_update_extra.price_dzd,
         name = coalesce(internal.trimmed_name(staff_update_extra.name), e.name)
   where e.code = staff_update_extra.code
  returning e.* into r;
  if not found then
    perform internal.fail('unknown_extra', coalesce(staff_update_extra.code, 'code'));
  end if;
  return to_jsonb(r);
end
$function$;

grant execute on function public.staff_update_extra(code text, price_dzd integer, name jsonb) to authenticated;
grant execute on function public.staff_update_extra(code text, price_dzd integer, name jsonb) to service_role;
