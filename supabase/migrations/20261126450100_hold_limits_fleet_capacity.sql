-- Bookings at scale (docs/database.md, "Bookings at scale"): the fleet-share limit counted the
-- active cars (a sequential scan of `cars`) on every booking and confirmation. With at least one
-- active car the fleet's capacity is at least one car's horizon, so an address holding no more
-- than the share of one car's horizon (36 days by default: nearly every caller) cannot pass the
-- limit, and the count is skipped; otherwise it is counted as before. Same answers, less work per
-- booking, and none that grows with the fleet.
-- Redefined from its live definition (supabase/schema/internal/functions/check_hold_limits.sql);
-- only the fleet-share check changes.

CREATE OR REPLACE FUNCTION internal.check_hold_limits(this_booking uuid, is_guest boolean, mailbox text, caller_key text, starts timestamp with time zone, ends timestamp with time zone)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  s public.settings;
  mail_domain text := internal.mail_domain(mailbox);
  is_private boolean := internal.is_private_mail_domain(mail_domain);
  lock_key text;
  n integer;
  capacity numeric;
  held numeric;
begin
  select x.* into s from public.settings x where x.id = 1;
  for lock_key in
    select k from unnest(array[
      'holds:address:' || caller_key,
      'holds:mailbox:' || mailbox,
      case when is_private then 'holds:domain:' || mail_domain end
    ]) k where k is not null order by k
  loop
    perform pg_advisory_xact_lock(hashtextextended(lock_key, 0));
  end loop;

  if is_guest then
    select count(*) into n
      from internal.booking_sources src
      join public.bookings b on b.id = src.booking_id
     where src.mailbox = check_hold_limits.mailbox
       and b.user_id is null and b.status = 'pending' and b.contact_confirmed_at is not null
       and b.id is distinct from this_booking;
    if n >= s.max_pending_per_contact then
      perform internal.fail_hold_limit('too_many_pending_for_contact', s.max_pending_per_contact,
        'mailbox');
    end if;
  end if;

  if is_private then
    select count(*) into n
      from internal.booking_sources src
      join public.bookings b on b.id = src.booking_id
     where src.domain = mail_domain
       and b.status = 'pending' and (b.confirm_by is null or b.contact_confirmed_at is not null)
       and b.id is distinct from this_booking;
    if n >= s.max_pending_per_domain then
      perform internal.fail_hold_limit('too_many_pending_for_domain', s.max_pending_per_domain,
        'domain');
    end if;
  end if;

  if caller_key is null then
    return;
  end if;
  if is_private then
    select count(*) into n
      from internal.booking_sources src
      join public.bookings b on b.id = src.booking_id
     where src.client_key = caller_key
       and internal.is_private_mail_domain(src.domain)
       and b.status = 'pending' and (b.confirm_by is null or b.contact_confirmed_at is not null)
       and b.id is distinct from this_booking;
    if n >= s.max_pending_private_per_address then
      perform internal.fail_hold_limit('too_many_pending_from_address',
        s.max_pending_private_per_address, 'private_domains');
    end if;
  end if;

  select coalesce(sum(internal.days_within(b.start_at, b.end_at, s.booking_horizon_days)), 0)
    into held
    from internal.booking_sources src
    join public.bookings b on b.id = src.booking_id
   where src.client_key = caller_key
     and b.status = 'pending' and (b.confirm_by is null or b.contact_confirmed_at is not null)
     and b.id is distinct from this_booking;
  held := held + internal.days_within(starts, ends, s.booking_horizon_days);
  -- With an active car, the capacity is at least one car's horizon: below its share, no count.
  if held * 100 > s.booking_horizon_days * s.max_fleet_share_per_address
     or not exists (select from public.cars c where c.active) then
    select count(*) * s.booking_horizon_days into capacity from public.cars c where c.active;
    if held * 100 > capacity * s.max_fleet_share_per_address then
      perform internal.fail_hold_limit('too_many_pending_from_address',
        s.max_fleet_share_per_address, 'fleet_share');
    end if;
  end if;
end
$function$;
