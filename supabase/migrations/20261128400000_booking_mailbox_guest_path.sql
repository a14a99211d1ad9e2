-- internal.booking_mailbox without a subquery on a guest's path (docs/database.md, "Bookings at
-- scale"): the guest's address is the argument, so only a customer's reads auth.users. One
-- expression with a subquery behind a CASE was planned again at each of its two calls a booking
-- (the generic plan keeps the subquery and costs more), and locked auth.users for guests too.
-- Same answers: a guest's key, else the customer's address's key, else 'account:<uid>'.

CREATE OR REPLACE FUNCTION internal.booking_mailbox(uid uuid, guest_email text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  if uid is null then
    return internal.email_key(guest_email);
  end if;
  return coalesce(internal.email_key((select u.email from auth.users u where u.id = uid)),
    'account:' || uid::text);
end
$function$;
