-- function internal.check_catalogue_name(value jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.check_catalogue_name(value jsonb)
 RETURNS void
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  lang text;
begin
  if not coalesce(internal.is_localized(value), false) then
    perform internal.fail('name_required', 'fr, en and ar');
  end if;
  foreach lang in array array['fr', 'en', 'ar'] loop
    if char_length(btrim(value ->> lang)) > internal.app_limit('name') then
      perform internal.fail('name_too_long', lang);
    end if;
    if internal.has_hidden_characters(value ->> lang) then
      perform internal.fail('invalid_name', lang);
    end if;
  end loop;
end
$function$;

