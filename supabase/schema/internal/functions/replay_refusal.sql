-- function internal.replay_refusal(r booking_refusals, request_hash text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.replay_refusal(r booking_refusals, request_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  if r.user_id is not null and r.user_id is distinct from auth.uid() then
    perform internal.fail('not_allowed', 'this booking id belongs to another customer');
  end if;
  if r.request_hash <> replay_refusal.request_hash then
    perform internal.fail('idempotency_key_reused',
      'booking ' || r.id || ' was reported with other content; a new booking needs a new id');
  end if;
  return jsonb_build_object('status', 'refused', 'reference', r.reference, 'code', r.code,
    'notified', r.notified);
end
$function$;

