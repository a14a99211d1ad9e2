-- function internal.invoke_edge_function(function_name text, payload jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.invoke_edge_function(function_name text, payload jsonb)
 RETURNS bigint
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  base_url text;
  call_secret text;
begin
  select s.decrypted_secret into base_url from vault.decrypted_secrets s where s.name = 'project_url';
  select s.decrypted_secret into call_secret
    from vault.decrypted_secrets s where s.name = 'function_call_secret';
  if base_url is null or call_secret is null then
    raise warning 'Edge Function % not called: the Vault secrets project_url and function_call_secret are missing (docs/operations.md)', function_name;
    return null;
  end if;
  return net.http_post(
    url := rtrim(base_url, '/') || '/functions/v1/' || function_name,
    body := payload,
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'Authorization', 'Bearer ' || call_secret
    ),
    timeout_milliseconds := 10000
  );
end
$function$;

