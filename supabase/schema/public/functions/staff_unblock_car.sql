-- function public.staff_unblock_car(block_id uuid): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_unblock_car(block_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  k public.car_blocks;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  delete from public.car_blocks x where x.id = staff_unblock_car.block_id returning * into k;
  if not found then
    perform internal.fail('not_found', coalesce(staff_unblock_car.block_id::text, 'block_id'));
  end if;
  return to_jsonb(k) - 'period';
end
$function$;

grant execute on function public.staff_unblock_car(block_id uuid) to authenticated;
grant execute on function public.staff_unblock_car(block_id uuid) to service_role;
