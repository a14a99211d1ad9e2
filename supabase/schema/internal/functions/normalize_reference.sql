-- function internal.normalize_reference(value text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.normalize_reference(value text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  return (
    select case
      when s ~ '^[0-9A-HJKMNP-TV-Z]{8}$' then 'KR-' || left(s, 4) || '-' || right(s, 4)
    end
    from (
      select translate(regexp_replace(r, '^KR', ''), 'ILO', '110') as s
      from (select regexp_replace(upper(coalesce(value, '')), '[\s_.\-]', '', 'g') as r) x
    ) y
  );
end
$function$;

