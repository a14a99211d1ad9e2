-- function public.staff_pending_sources(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_pending_sources()
 RETURNS TABLE(kind text, source text, pending integer, unconfirmed integer, car_days numeric, first_at timestamp with time zone, last_at timestamp with time zone, refs text[])
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  horizon integer := coalesce(
    (select s.booking_horizon_days from public.settings s where s.id = 1), 365);
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  return query
    with pending as (
      select src.client_key, src.domain, b.reference, b.created_at,
             b.contact_confirmed_at is null and b.user_id is null as unproven,
             case when internal.booking_holds_car(b.status, b.confirm_by, b.contact_confirmed_at)
               then internal.days_within(b.start_at, b.end_at, horizon) else 0 end as days
        from internal.booking_sources src
        join public.bookings b on b.id = src.booking_id
       where b.status = 'pending'
    ),
    grouped as (
      select 'address'::text as kind, p.client_key as source, p.reference, p.created_at,
             p.unproven, p.days
        from pending p where p.client_key is not null
      union all
      select 'domain', p.domain, p.reference, p.created_at, p.unproven, p.days
        from pending p where internal.is_private_mail_domain(p.domain)
    )
    select g.kind, g.source, count(*)::integer, count(*) filter (where g.unproven)::integer,
           round(sum(g.days), 1), min(g.created_at), max(g.created_at),
           (array_agg(g.reference order by g.created_at desc))[1:5]
      from grouped g
     group by g.kind, g.source
    having count(*) >= 2
     order by count(*) desc, max(g.created_at) desc
     limit 20;
end
$function$;

grant execute on function public.staff_pending_sources() to authenticated;
grant execute on function public.staff_pending_sources() to service_role;
