-- What Supabase's own checks found on the migrated database (`npm run test:supabase`):
-- - `supabase db advisors`: ERROR security_definer_view on public.car_reviews (a view that runs
--   with its owner's rights bypasses the caller's RLS);
-- - `supabase db lint` (plpgsql_check): car_busy_periods' parameters "from" and "to" are reserved
--   words, and internal.payload_instant may reach its end without RETURN.
-- The API stays the same: the view keeps its columns and the RPC its parameter names.

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- The public face of reviews: no booking, no customer id, the author as "Karim B.". SECURITY
-- DEFINER because reviews and profiles are private; it returns nothing else.
create or replace function authz.car_reviews()
returns table (
  id uuid,
  car_id uuid,
  rating smallint,
  comment text,
  created_at timestamptz,
  author_name text
)
language sql
stable
security definer
set search_path = ''
as $$
  select
    r.id,
    r.car_id,
    r.rating,
    r.comment,
    r.created_at,
    trim(
      split_part(trim(p.full_name), ' ', 1)
      || case
        when position(' ' in trim(p.full_name)) > 0
          then ' ' || upper(left(regexp_replace(trim(p.full_name), '^.*\s', ''), 1)) || '.'
        else ''
      end
    )
  from public.reviews r
  join public.profiles p on p.id = r.user_id
$$;

-- The window car_busy_periods reads, checked: `window_end` after `window_start`, at most 800 days.
create or replace function internal.busy_window(window_start timestamptz, window_end timestamptz)
returns tstzrange
language plpgsql
immutable
set search_path = ''
as $$
begin
  if window_start is null or window_end is null or window_end <= window_start then
    perform internal.fail('invalid_dates', '"to" must be after "from"');
  end if;
  if window_end - window_start > interval '800 days' then
    perform internal.fail('invalid_dates', 'the window is at most 800 days');
  end if;
  return tstzrange(window_start, window_end, '[)');
end
$$;

-- Same parameters (the app calls it with ?from=…&to=…), now plain SQL: the busy periods of the
-- window, no personal data.
create or replace function public.car_busy_periods("from" timestamptz, "to" timestamptz)
returns table (car_id uuid, start_at timestamptz, end_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select b.car_id, b.start_at, b.end_at
    from internal.busy_window(car_busy_periods."from", car_busy_periods."to") as w (span)
    join public.bookings b on b.period && w.span
   where b.status in ('pending', 'reserved', 'in_progress')
   order by b.car_id, b.start_at
$$;

-- Unchanged rules; the last statement returns, so no path ends without a value.
create or replace function internal.payload_instant(p jsonb, key text)
returns timestamptz
language plpgsql
immutable
set search_path = ''
as $$
declare
  v jsonb := p -> key;
  s text;
  parsed timestamptz;
begin
  if v is null or jsonb_typeof(v) = 'null' then
    return null;
  end if;
  s := case when jsonb_typeof(v) = 'string' then p ->> key end;
  if s is null
     or s !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?(Z|z|[+-][0-9]{2}(:?[0-9]{2})?)$' then
    perform internal.fail('invalid_dates', key || ' must be an ISO 8601 date-time with an offset');
  end if;
  begin
    parsed := s::timestamptz;
  exception when others then
    perform internal.fail('invalid_dates', key || ' is not a real date-time');
  end;
  return parsed;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Views
-- ---------------------------------------------------------------------------------------------
-- Runs with the caller's rights now; the rows come from authz.car_reviews().
create or replace view public.car_reviews
with (security_barrier = true)
as
select r.id, r.car_id, r.rating, r.comment, r.created_at, r.author_name
  from authz.car_reviews() r;

alter view public.car_reviews set (security_invoker = true);

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function authz.car_reviews() from public;
grant execute on function authz.car_reviews() to anon, authenticated, service_role;
revoke all on function internal.busy_window(timestamptz, timestamptz) from public;
