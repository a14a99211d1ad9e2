-- function public.resend_guest_confirmation(booking_id uuid): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.resend_guest_confirmation(booking_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  b public.bookings;
  c internal.guest_confirmations;
  new_code text;
  left_after integer;
begin
  select x.* into b from public.bookings x
   where x.id = resend_guest_confirmation.booking_id and x.user_id is null
     for update;
  if not found then
    perform internal.fail('not_found', coalesce(resend_guest_confirmation.booking_id::text, 'booking_id'));
  end if;
  if b.contact_confirmed_at is not null then
    return jsonb_build_object('sent', false, 'reason', 'already_confirmed');
  end if;
  if internal.expire_lapsed_bookings(only_booking => b.id) > 0 or b.status = 'expired' then
    return jsonb_build_object('sent', false, 'reason', 'booking_expired');
  end if;
  if b.status <> 'pending' then
    return jsonb_build_object('sent', false, 'reason', 'invalid_status_transition');
  end if;
  select x.* into c from internal.guest_confirmations x where x.booking_id = b.id for update;
  if not found then
    perform internal.fail('not_found', b.id::text);
  end if;
  if c.sends >= 4 then
    return jsonb_build_object('sent', false, 'reason', 'resend_limited', 'resends_left', 0,
      'retry_after', null);
  end if;
  if c.mail_sent and c.last_sent_at > now() - interval '1 minute' then
    return jsonb_build_object('sent', false, 'reason', 'resend_limited',
      'resends_left', 4 - c.sends, 'retry_after', c.last_sent_at + interval '1 minute');
  end if;

  new_code := internal.new_confirmation_code();
  if not internal.enqueue_guest_mail(b, 'guest_confirmation', new_code) then
    -- The codes already sent stay valid, and so does what the booking says of them.
    return jsonb_build_object('sent', false, 'reason', 'mail_rate_limited');
  end if;
  update internal.guest_confirmations x
     set previous_code_hash = case when c.mail_sent then x.code_hash else x.previous_code_hash end,
         code_hash = internal.confirmation_code_hash(b.id, new_code),
         sends = x.sends + 1,
         last_sent_at = now(),
         mail_sent = true
   where x.booking_id = b.id
  returning 4 - x.sends into left_after;
  return jsonb_build_object('sent', true, 'confirm_by', b.confirm_by, 'resends_left', left_after);
end
$function$;

grant execute on function public.resend_guest_confirmation(booking_id uuid) to anon;
grant execute on function public.resend_guest_confirmation(booking_id uuid) to authenticated;
grant execute on function public.resend_guest_confirmation(booking_id uuid) to service_role;
