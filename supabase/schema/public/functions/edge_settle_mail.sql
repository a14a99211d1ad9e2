-- function public.edge_settle_mail(mail_id bigint, provider_id text, error text, permanent boolean): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.edge_settle_mail(mail_id bigint, provider_id text DEFAULT NULL::text, error text DEFAULT NULL::text, permanent boolean DEFAULT false)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform public.edge_settle_mails(jsonb_build_array(jsonb_build_object(
    'mail_id', edge_settle_mail.mail_id,
    'provider_id', edge_settle_mail.provider_id,
    'error', edge_settle_mail.error,
    'permanent', edge_settle_mail.permanent)));
end
$function$;

grant execute on function public.edge_settle_mail(mail_id bigint, provider_id text, error text, permanent boolean) to service_role;
