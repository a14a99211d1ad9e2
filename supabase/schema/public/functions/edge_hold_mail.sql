-- function public.edge_hold_mail(sender uuid): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.edge_hold_mail(sender uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  update internal.mail_sender s
     set busy_until = clock_timestamp() + interval '5 seconds', holder = sender
   where s.busy_until <= clock_timestamp() or s.holder = sender;
  return found;
end
$function$;

grant execute on function public.edge_hold_mail(sender uuid) to service_role;
