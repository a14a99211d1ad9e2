-- function internal.check_creation_limits(uid uuid, caller_key text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.check_creation_limits(uid uuid, caller_key text)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  s public.settings;
  n integer;
  soonest timestamptz;
begin
  select x.* into s from public.settings x where x.id = 1;
  if uid is not null then
    perform pg_advisory_xact_lock(hashtextextended('booking_limits:account:' || uid::text, 0));
    select count(*) into n from public.bookings b where b.user_id = uid and b.status = 'pending';
    if n >= s.max_pending_per_account then
      perform internal.fail_limit('too_many_pending_for_account', s.max_pending_per_account, null);
    end if;
    select count(*), min(x.created_at) into n, soonest
      from (select b.created_at from public.bookings b
             where b.user_id = uid and b.created_at > now() - interval '1 hour'
            union all
            select r.created_at from public.booking_refusals r
             where r.user_id = uid and r.created_at > now() - interval '1 hour') x;
    if n >= s.max_bookings_per_hour then
      perform internal.fail_limit('booking_rate_limited', s.max_bookings_per_hour,
        soonest + interval '1 hour');
    end if;
    return;
  end if;

  if caller_key is null then
    return;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('booking_limits:address:' || caller_key, 0));
  select count(*), min(x.created_at) into n, soonest
    from (select src.created_at
            from internal.booking_sources src
            join public.bookings b on b.id = src.booking_id
           where src.client_key = caller_key
             and b.user_id is null and b.contact_confirmed_at is null
             and src.created_at > now() - interval '1 hour'
          union all
          select r.created_at from public.booking_refusals r
           where r.client_key = caller_key
             and r.user_id is null
             and r.created_at > now() - interval '1 hour') x;
  if n >= s.max_unconfirmed_per_address_hour then
    perform internal.fail_limit('booking_rate_limited', s.max_unconfirmed_per_address_hour,
      soonest + interval '1 hour');
  end if;
end
$function$;

