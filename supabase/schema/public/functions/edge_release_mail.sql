-- function public.edge_release_mail(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.edge_release_mail()
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  update internal.mail_sender s set busy_until = least(s.busy_until, clock_timestamp());
end
$function$;

grant execute on function public.edge_release_mail() to service_role;
