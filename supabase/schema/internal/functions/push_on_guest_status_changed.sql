-- function internal.push_on_guest_status_changed(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.push_on_guest_status_changed()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  kind text := internal.status_notification_type(new.status);
begin
  if kind is not null then
    insert into internal.push_outbox (subscription_id, endpoint, p256dh, auth, payload, topic, urgency, ttl_seconds)
    select s.id, s.endpoint, s.p256dh, s.auth,
           internal.push_payload(kind, 'guest', new.id, new.reference,
             case when new.status in ('rejected', 'cancelled') then nullif(trim(new.status_reason), '') end,
             case when new.status = 'expired' then new.status_reason end,
             null, s.locale),
           replace(new.id::text, '-', ''),
           internal.push_urgency(kind),
           86400
      from public.push_subscriptions s
     where s.booking_id = new.id;
  end if;
  if new.status in ('rejected', 'cancelled', 'completed', 'expired') then
    delete from public.push_subscriptions s where s.booking_id = new.id;
  end if;
  return null;
end
$function$;

