-- function internal.replay_booking(b bookings, request_hash text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.replay_booking(b bookings, request_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  stored_hash text;
begin
  if b.user_id is not null and b.user_id is distinct from auth.uid() then
    perform internal.fail('not_allowed', 'this booking id belongs to another customer');
  end if;
  select r.request_hash into stored_hash from internal.booking_requests r where r.booking_id = b.id;
  if stored_hash is not null and stored_hash <> replay_booking.request_hash then
    perform internal.fail('idempotency_key_reused',
      'booking ' || b.id || ' was created with other content; a new booking needs a new id');
  end if;
  return internal.booking_public_json(b);
end
$function$;

