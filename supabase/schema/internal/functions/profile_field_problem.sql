-- function internal.profile_field_problem(meta jsonb, field text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.profile_field_problem(meta jsonb, field text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  raw jsonb := meta -> field;
  v text;
begin
  if raw is null or jsonb_typeof(raw) = 'null' then
    return case when field = 'locale' then null else 'required' end;
  end if;
  if jsonb_typeof(raw) not in ('string', 'number') then
    return 'format';
  end if;
  v := trim(meta ->> field);
  if v = '' then
    return case when field = 'locale' then 'format' else 'required' end;
  end if;
  if internal.has_hidden_characters(v) then
    return 'control_characters';
  end if;
  case field
    when 'name' then
      if char_length(v) > internal.app_limit('name') then return 'too_long'; end if;
    when 'address' then
      if char_length(v) > internal.app_limit('address') then return 'too_long'; end if;
    when 'phone' then
      if internal.normalize_phone(v) is null then return 'format'; end if;
    when 'age' then
      if v !~ '^[0-9]{1,3}$' then return 'format'; end if;
      if v::integer < internal.app_limit('age_min') then return 'under_age'; end if;
      if v::integer > internal.app_limit('age_max') then return 'too_old'; end if;
    when 'locale' then
      if v not in ('fr', 'en', 'ar') then return 'format'; end if;
    else
      null;
  end case;
  return null;
end
$function$;

grant execute on function internal.profile_field_problem(meta jsonb, field text) to supabase_auth_admin;
