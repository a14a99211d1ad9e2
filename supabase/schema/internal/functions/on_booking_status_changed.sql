-- function internal.on_booking_status_changed(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.on_booking_status_changed()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  kind text := internal.status_notification_type(new.status);
begin
  if kind is null then
    return null;
  end if;
  if new.user_id is not null then
    if new.user_id is distinct from auth.uid() then
      insert into public.notifications (user_id, booking_id, type, reference, reason, reason_code)
      values (new.user_id, new.id, kind, new.reference,
        case when new.status in ('rejected', 'cancelled') then nullif(trim(new.status_reason), '') end,
        case when new.status = 'expired' then new.status_reason end);
      if kind in ('booking_accepted', 'booking_rejected', 'booking_cancelled') then
        perform internal.enqueue_customer_mail(new, kind);
      end if;
    end if;
  elsif not (new.status = 'expired' and new.status_reason = 'car_unavailable') then
    perform internal.enqueue_guest_mail(new, kind);
  end if;
  return null;
end
$function$;

