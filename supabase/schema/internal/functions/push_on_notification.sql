-- function internal.push_on_notification(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.push_on_notification()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  insert into internal.push_outbox (subscription_id, endpoint, p256dh, auth, payload, topic, urgency, ttl_seconds)
  select s.id, s.endpoint, s.p256dh, s.auth,
         internal.push_payload(new.type, 'customer', new.booking_id, new.reference, new.reason,
           new.reason_code, new.id, s.locale),
         coalesce(replace(new.booking_id::text, '-', ''), replace(new.reference, '-', '')),
         internal.push_urgency(new.type),
         86400
    from public.push_subscriptions s
   where s.user_id = new.user_id;
  return null;
end
$function$;

