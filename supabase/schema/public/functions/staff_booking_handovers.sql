-- function public.staff_booking_handovers(booking_id uuid): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_booking_handovers(booking_id uuid)
 RETURNS SETOF jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  return query
    select internal.handover_json(h)
      from public.booking_handovers h
     where h.booking_id = staff_booking_handovers.booking_id
     order by h.kind desc;
end
$function$;

grant execute on function public.staff_booking_handovers(booking_id uuid) to authenticated;
grant execute on function public.staff_booking_handovers(booking_id uuid) to service_role;
