-- A guest's bookings join an account (issue 23; docs/decisions.md, "Guest bookings join an
-- account"). On the confirmation step a guest may also open a Kiraa account with the booking's
-- address: the code typed is GoTrue's own e-mail code (signInWithOtp with shouldCreateUser, then
-- verifyOtp type 'email'), which proves the mailbox on hosted Supabase as locally. Once signed in,
-- `claim_guest_bookings(items)` moves to the account the guest bookings the device names, each
-- proved by what the device keeps of it (its id, random and made on the device, with its
-- reference) and by the account's confirmed address being the booking's contact address. An
-- unconfirmed booking is confirmed on the way (the mailbox is proven), under the same limits as
-- `confirm_guest_booking`.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------

-- Items an account named that were not its guest bookings (wrong id, reference or address):
-- 30 an hour per account, then `rate_limited`.
create table internal.guest_claim_failures (
  user_id uuid not null,
  failed_at timestamptz not null default now()
);

create index guest_claim_failures_user_idx on internal.guest_claim_failures (user_id, failed_at);

alter table internal.guest_claim_failures enable row level security;
revoke all on table internal.guest_claim_failures from public;

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

create or replace function public.claim_guest_bookings(items jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  account_email text;
  token_email text := lower(auth.jwt() ->> 'email');
  item jsonb;
  wanted_id uuid;
  wanted_ref text;
  b public.bookings;
  src internal.booking_sources;
  was_unconfirmed boolean;
  n integer;
  oldest timestamptz;
  refused_code text;
  refused_detail text;
  answers jsonb := '[]'::jsonb;
begin
  perform internal.require_writable();
  if uid is null then
    perform internal.fail('not_allowed', 'sign in first');
  end if;
  -- The mailbox is proven: the account's address is confirmed, and the token speaks for it.
  select lower(u.email) into account_email
    from auth.users u
   where u.id = uid and u.email_confirmed_at is not null;
  if account_email is null or token_email is distinct from account_email then
    perform internal.fail('contact_not_confirmed', 'the account''s e-mail address is not confirmed');
  end if;
  if jsonb_typeof(items) is distinct from 'array' or jsonb_array_length(items) = 0
     or jsonb_array_length(items) > 10 then
    perform internal.fail('invalid_payload', 'items: an array of 1 to 10 {id, reference}');
  end if;

  perform pg_advisory_xact_lock(hashtextextended('claim_guest_bookings:' || uid::text, 0));
  select count(*), min(f.failed_at) into n, oldest
    from internal.guest_claim_failures f
   where f.user_id = uid and f.failed_at > now() - interval '1 hour';
  if n >= 30 then
    perform internal.fail('rate_limited', json_build_object('limit', 30, 'scope', 'account',
      'retry_after', oldest + interval '1 hour')::text);
  end if;

  for item in select x.value from jsonb_array_elements(items) x loop
    wanted_id := null;
    wanted_ref := null;
    b := null;
    if jsonb_typeof(item) = 'object'
       and coalesce(item ->> 'id', '') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      wanted_id := (item ->> 'id')::uuid;
      wanted_ref := internal.normalize_reference(item ->> 'reference');
    end if;
    if wanted_id is not null and wanted_ref is not null then
      select x.* into b from public.bookings x
       where x.id = wanted_id and x.reference = wanted_ref
         for update;
    end if;

    -- Already this account's (a replay): the same answer, nothing changes.
    if b.id is not null and b.user_id = uid then
      answers := answers || jsonb_build_object('id', b.id, 'reference', b.reference,
        'joined', true, 'booking', internal.booking_public_json(b));
      continue;
    end if;
    -- Not a guest booking of this address (or not one at all): the same answer either way.
    if b.id is null or b.user_id is not null
       or lower(b.guest_email) is distinct from account_email then
      insert into internal.guest_claim_failures (user_id) values (uid);
      answers := answers || jsonb_build_object('id', item ->> 'id',
        'reference', item ->> 'reference', 'joined', false, 'reason', 'not_found');
      continue;
    end if;

    was_unconfirmed := b.contact_confirmed_at is null;
    if internal.expire_lapsed_bookings(only_booking => b.id) > 0 or b.status = 'expired' then
      -- An expired request never happened: it stays the guest's (bookings_expired_unconfirmed).
      select x.* into b from public.bookings x where x.id = b.id;
      answers := answers || jsonb_build_object('id', b.id, 'reference', b.reference,
        'joined', false,
        'reason', case when b.status_reason = 'car_unavailable' then 'car_unavailable'
                       else 'booking_expired' end,
        'booking', internal.booking_public_json(b));
      continue;
    end if;

    if was_unconfirmed and b.status = 'pending' then
      -- Confirmed now: what its sources may hold, as confirm_guest_booking checks.
      select x.* into src from internal.booking_sources x where x.booking_id = b.id;
      begin
        perform internal.check_hold_limits(b.id, true,
          coalesce(src.mailbox, internal.email_key(b.guest_email)), src.client_key,
          b.start_at, b.end_at);
      exception when sqlstate 'P0001' then
        get stacked diagnostics refused_code = message_text, refused_detail = pg_exception_detail;
        answers := answers || jsonb_build_object('id', b.id, 'reference', b.reference,
          'joined', false, 'reason', refused_code, 'detail', refused_detail::jsonb);
        continue;
      end;
    end if;

    begin
      update public.bookings x
         set user_id = uid, confirm_by = null, contact_confirmed_at = null
       where x.id = b.id
      returning x.* into b;
    exception when exclusion_violation then
      -- A proven booking took the car first: this request is over, as at a guest's confirmation.
      update public.bookings x
         set status = 'expired', status_reason = 'car_unavailable'
       where x.id = b.id
      returning x.* into b;
      answers := answers || jsonb_build_object('id', b.id, 'reference', b.reference,
        'joined', false, 'reason', 'car_unavailable', 'booking', internal.booking_public_json(b));
      continue;
    end;

    update internal.guest_confirmations x
       set confirmed_at = coalesce(x.confirmed_at, now())
     where x.booking_id = b.id;
    -- This device's pushes for the booking now follow the account.
    insert into public.push_subscriptions (user_id, endpoint, p256dh, auth, locale)
    select uid, p.endpoint, p.p256dh, p.auth, p.locale
      from public.push_subscriptions p
     where p.booking_id = b.id
    on conflict (user_id, endpoint) do nothing;
    delete from public.push_subscriptions p where p.booking_id = b.id;
    insert into public.booking_events (booking_id, status, reason, actor, actor_id)
    values (b.id, b.status, 'joined_account', 'customer', uid);
    if was_unconfirmed and b.status = 'pending' then
      perform internal.enqueue_customer_mail(b, 'booking_received');
    end if;
    answers := answers || jsonb_build_object('id', b.id, 'reference', b.reference,
      'joined', true, 'booking', internal.booking_public_json(b));
  end loop;
  return answers;
end
$$;

comment on function public.claim_guest_bookings(jsonb) is
  'Moves to the signed-in account (confirmed e-mail) the guest bookings of its address that the '
  'caller names by id and reference; confirms the unconfirmed ones. docs/decisions.md, "Guest '
  'bookings join an account".';

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------

revoke all on function public.claim_guest_bookings(jsonb) from public, anon;
grant execute on function public.claim_guest_bookings(jsonb) to authenticated, service_role;
