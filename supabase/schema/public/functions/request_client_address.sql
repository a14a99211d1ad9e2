-- function public.request_client_address(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.request_client_address()
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return jsonb_build_object(
    'address', host(internal.client_address()),
    'key', internal.client_address_key());
end
$function$;

grant execute on function public.request_client_address() to anon;
grant execute on function public.request_client_address() to authenticated;
grant execute on function public.request_client_address() to service_role;
