-- function internal.check_push_subscription(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.check_push_subscription()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not internal.push_endpoint_allowed(new.endpoint) then
    perform internal.fail('invalid_push_endpoint', left(new.endpoint, 200));
  end if;
  new.updated_at := now();
  if tg_op = 'INSERT' then
    new.created_at := now();
    if new.user_id is not null then
      delete from public.push_subscriptions s
       where s.id in (
         select x.id from public.push_subscriptions x
          where x.user_id = new.user_id and x.endpoint <> new.endpoint
          order by x.updated_at desc, x.id
         offset 9);
    end if;
  end if;
  return new;
end
$function$;

