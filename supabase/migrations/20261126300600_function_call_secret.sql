-- Calls from the database to Edge Functions (webhooks and schedules) carry a narrow secret, not
-- the service-role key (docs/functions.md, "Callers"). pg_net keeps every request it queues in
-- net.http_request_queue, headers included, and a hosted project grants pg_net's tables to
-- PUBLIC: the service-role key there could be read by any role that reaches them, and it opens
-- every table. The Vault secret `function_call_secret` lets one only call the functions that
-- check it (send-mail, check-upload, clean-uploads, push-send: their sweeps are idempotent), and
-- the functions compare it in code with their FUNCTION_CALL_SECRET: with the new asymmetric
-- signing keys the platform's verify_jwt refuses non-JWT keys, so config.toml turns it off for
-- them and each function verifies its caller itself (supabase/functions/_shared/http.ts).

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- Calls an Edge Function after this transaction commits (pg_net), with the function-call secret
-- from Vault. Without the secrets it warns and calls nothing: the schedule's sweep retries later.
create or replace function internal.invoke_edge_function(function_name text, payload jsonb)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
