-- function public.unsubscribe_guest_push(endpoint text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.unsubscribe_guest_push(endpoint text)
 RETURNS integer
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
  with gone as (
    delete from public.push_subscriptions s
     where s.user_id is null and s.endpoint = unsubscribe_guest_push.endpoint
    returning 1)
  select count(*)::integer from gone
$function$;

grant execute on function public.unsubscribe_guest_push(endpoint text) to anon;
grant execute on function public.unsubscribe_guest_push(endpoint text) to authenticated;
grant execute on function public.unsubscribe_guest_push(endpoint text) to service_role;
