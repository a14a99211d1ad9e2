-- function public.staff_set_opening_hours(location_id uuid, opening_hours jsonb, closed_dates date[]): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_set_opening_hours(location_id uuid, opening_hours jsonb, closed_dates date[])
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  place public.locations;
  dates date[];
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  if not internal.is_opening_hours(staff_set_opening_hours.opening_hours) then
    perform internal.fail('invalid_opening_hours',
      '7 entries (0 = Sunday), each null or [open, close] minutes, 0 <= open < close <= 1440');
  end if;
  select coalesce(array_agg(distinct x order by x), '{}') into dates
    from unnest(coalesce(staff_set_opening_hours.closed_dates, '{}')) x
   where x is not null;
  if cardinality(dates) > internal.app_limit('closed_dates') then
    perform internal.fail('too_many_closed_dates',
      format('at most %s', internal.app_limit('closed_dates')));
  end if;
  update public.locations l
     set opening_hours = staff_set_opening_hours.opening_hours, closed_dates = dates
   where l.id = staff_set_opening_hours.location_id
  returning l.* into place;
  if not found then
    perform internal.fail('location_not_found',
      coalesce(staff_set_opening_hours.location_id::text, 'location_id'));
  end if;
  return to_jsonb(place);
end
$function$;

grant execute on function public.staff_set_opening_hours(location_id uuid, opening_hours jsonb, closed_dates date[]) to authenticated;
grant execute on function public.staff_set_opening_hours(location_id uuid, opening_hours jsonb, closed_dates date[]) to service_role;
