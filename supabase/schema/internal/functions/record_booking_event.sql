-- function internal.record_booking_event(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.record_booking_event()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  uid uuid := auth.uid();
  who text;
begin
  if tg_op = 'INSERT' then
    who := case when new.user_id is null then 'guest' else 'customer' end;
    insert into public.booking_events (booking_id, status, actor, actor_id, created_at)
    values (new.id, 'pending', who, case when uid = new.user_id then uid end, new.created_at);
    if new.status <> 'pending' then
      insert into public.booking_events (booking_id, status, reason, actor, created_at)
      values (new.id, new.status, new.status_reason, 'system', new.updated_at);
    end if;
    return null;
  end if;

  who := case
    when uid is not null and uid = new.user_id then 'customer'
    when uid is not null and public.is_admin() then 'staff'
    else 'system'
  end;
  insert into public.booking_events (booking_id, status, reason, actor, actor_id)
  values (
    new.id,
    new.status,
    new.status_reason,
    who,
    case when who in ('customer', 'staff') then uid end
  );
  return null;
end
$function$;

