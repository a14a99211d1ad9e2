-- function public.staff_reject_source(kind text, source text, reason text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_reject_source(kind text, source text, reason text)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  why text := nullif(trim(coalesce(staff_reject_source.reason, '')), '');
  target record;
  done integer := 0;
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  if staff_reject_source.kind not in ('address', 'domain') or staff_reject_source.source is null then
    perform internal.fail('invalid_payload', 'kind is address or domain, with a source');
  end if;
  if why is null then
    perform internal.fail('reason_required', 'a rejection needs a reason');
  end if;
  for target in
    select b.id
      from internal.booking_sources src
      join public.bookings b on b.id = src.booking_id
     where b.status = 'pending'
       and case staff_reject_source.kind
             when 'address' then src.client_key = staff_reject_source.source
             else src.domain = lower(staff_reject_source.source)
           end
     order by b.created_at
  loop
    if internal.expire_lapsed_bookings(only_booking => target.id) = 0 then
      perform public.staff_set_booking_status(target.id, 'rejected', why);
    end if;
    done := done + 1;
  end loop;
  return done;
end
$function$;

grant execute on function public.staff_reject_source(kind text, source text, reason text) to authenticated;
grant execute on function public.staff_reject_source(kind text, source text, reason text) to service_role;
