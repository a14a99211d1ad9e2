-- function internal.enqueue_mail(to_email text, subject text, body_text text, booking_id uuid, kind text, locale text, limited boolean): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.enqueue_mail(to_email text, subject text, body_text text, booking_id uuid, kind text, locale text, limited boolean)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  to_key text := internal.email_key(enqueue_mail.to_email);
  per_hour integer;
  per_day integer;
  last_hour integer;
  last_day integer;
begin
  if not internal.is_mailable_address(enqueue_mail.to_email) then
    insert into internal.mail_dropped (to_key, kind, booking_id, reason)
    values (coalesce(to_key, ''), enqueue_mail.kind, enqueue_mail.booking_id, 'unsafe_address');
    return false;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('mail:' || to_key, 0));
  if limited then
    if enqueue_mail.kind = 'guest_confirmation' then
      select coalesce(s.max_code_mails_per_address_hour, 8), coalesce(s.max_code_mails_per_address_day, 20)
        into per_hour, per_day
        from public.settings s where s.id = 1;
    else
      select coalesce(s.max_mails_per_address_hour, 5), coalesce(s.max_mails_per_address_day, 10)
        into per_hour, per_day
        from public.settings s where s.id = 1;
    end if;
    select count(*) filter (where o.created_at > now() - interval '1 hour'), count(*)
      into last_hour, last_day
      from internal.mail_outbox o
     where internal.email_key(o.to_email) = to_key
       and o.kind = enqueue_mail.kind
       and o.created_at > now() - interval '1 day';
    if last_hour >= coalesce(per_hour, 5) or last_day >= coalesce(per_day, 10) then
      insert into internal.mail_dropped (to_key, kind, booking_id, reason)
      values (to_key, enqueue_mail.kind, enqueue_mail.booking_id, 'rate_limited');
      return false;
    end if;
  end if;
  insert into internal.mail_outbox (to_email, subject, body_text, booking_id, kind, locale)
  values (enqueue_mail.to_email, enqueue_mail.subject, enqueue_mail.body_text,
    enqueue_mail.booking_id, enqueue_mail.kind, enqueue_mail.locale);
  return true;
end
$function$;

