-- function public.hook_password_verification_attempt(event jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.hook_password_verification_attempt(event jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  account uuid := (event ->> 'user_id')::uuid;
  window_length constant interval := interval '15 minutes';
  max_failures constant integer := 10;
  failures integer;
begin
  delete from internal.password_failures f
   where f.user_id = account and f.failed_at < now() - window_length;
  select count(*) into failures from internal.password_failures f where f.user_id = account;
  if failures >= max_failures then
    return jsonb_build_object(
      'decision', 'reject',
      'message', 'Too many failed sign-ins for this account: try again in 15 minutes.',
      'should_logout_user', false
    );
  end if;
  if coalesce((event ->> 'valid')::boolean, false) then
    delete from internal.password_failures f where f.user_id = account;
  else
    insert into internal.password_failures (user_id) values (account);
  end if;
  return jsonb_build_object('decision', 'continue');
end
$function$;

grant execute on function public.hook_password_verification_attempt(event jsonb) to supabase_auth_admin;
