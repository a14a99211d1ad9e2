-- function public.subscribe_guest_push(reference text, contact text, endpoint text, p256dh text, auth text, locale text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.subscribe_guest_push(reference text, contact text, endpoint text, p256dh text, auth text, locale text DEFAULT 'fr'::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  found jsonb;
  booking uuid;
begin
  if not internal.push_endpoint_allowed(subscribe_guest_push.endpoint) then
    perform internal.fail('invalid_push_endpoint', left(subscribe_guest_push.endpoint, 200));
  end if;
  if coalesce(subscribe_guest_push.p256dh, '') !~ '^[A-Za-z0-9_-]{87}=?$'
     or coalesce(subscribe_guest_push.auth, '') !~ '^[A-Za-z0-9_-]{22}(==)?$'
     or coalesce(subscribe_guest_push.locale, '') not in ('fr', 'en', 'ar') then
    perform internal.fail('invalid_payload', 'p256dh, auth (base64url) and locale (fr, en, ar)');
  end if;
  found := public.find_guest_booking(subscribe_guest_push.reference, subscribe_guest_push.contact);
  if found is null then
    return jsonb_build_object('subscribed', false, 'reason', 'not_found');
  end if;
  if found ->> 'status' in ('rejected', 'cancelled', 'completed', 'expired') then
    return jsonb_build_object('subscribed', false, 'reason', 'booking_finished');
  end if;
  booking := (found ->> 'id')::uuid;
  insert into public.push_subscriptions as s (booking_id, endpoint, p256dh, auth, locale)
  values (booking, subscribe_guest_push.endpoint, subscribe_guest_push.p256dh,
          subscribe_guest_push.auth, subscribe_guest_push.locale)
  on conflict on constraint push_subscriptions_booking_endpoint_key do update
    set p256dh = excluded.p256dh, auth = excluded.auth, locale = excluded.locale;
  -- At most 5 devices per booking: the oldest go.
  delete from public.push_subscriptions s
   where s.id in (
     select x.id from public.push_subscriptions x
      where x.booking_id = booking
      order by x.updated_at desc, x.id
     offset 5);
  return jsonb_build_object('subscribed', true);
end
$function$;

grant execute on function public.subscribe_guest_push(reference text, contact text, endpoint text, p256dh text, auth text, locale text) to anon;
grant execute on function public.subscribe_guest_push(reference text, contact text, endpoint text, p256dh text, auth text, locale text) to authenticated;
grant execute on function public.subscribe_guest_push(reference text, contact text, endpoint text, p256dh text, auth text, locale text) to service_role;
