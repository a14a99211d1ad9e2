-- function internal.guard_unconfirmed_booking(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.guard_unconfirmed_booking()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if old.status = 'pending' and old.user_id is null and new.contact_confirmed_at is null
     and new.status is distinct from old.status and new.status <> 'expired' then
    if old.confirm_by <= now() then
      perform internal.fail('booking_expired',
        'the guest did not confirm the contact before '
          || to_char(old.confirm_by at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'));
    end if;
    if new.status in ('reserved', 'in_progress', 'completed') then
      perform internal.fail('contact_not_confirmed',
        'the guest has until ' || to_char(old.confirm_by at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
          || ' to confirm the contact');
    end if;
  end if;
  return new;
end
$function$;

