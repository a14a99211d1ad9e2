-- function public.hook_before_user_created(event jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.hook_before_user_created(event jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  meta jsonb := coalesce(event -> 'user' -> 'user_metadata', '{}'::jsonb);
  field text;
  problem text;
begin
  if jsonb_typeof(meta) <> 'object' then
    meta := '{}'::jsonb;
  end if;
  foreach field in array array['name', 'phone', 'age', 'address', 'locale'] loop
    problem := internal.profile_field_problem(meta, field);
    if problem is not null then
      return jsonb_build_object(
        'error', jsonb_build_object('http_code', 422, 'message', field || ': ' || problem)
      );
    end if;
  end loop;
  return '{}'::jsonb;
end
$function$;

grant execute on function public.hook_before_user_created(event jsonb) to supabase_auth_admin;
