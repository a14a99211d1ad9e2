-- function internal.format_dzd(amount integer, locale text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.format_dzd(amount integer, locale text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  return case when amount is null then ''
    else (case when amount < 0 then '-' else '' end) || regexp_replace(
      abs(amount)::text, '(\d)(?=(\d{3})+$)',
      case when locale = 'en' then '\1,' else E'\\1\u00a0' end, 'g')
  end;
end
$function$;

