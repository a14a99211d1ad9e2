-- function internal.mail_safe_text(value text, max_length integer): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.mail_safe_text(value text, max_length integer DEFAULT 60)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v text := coalesce(value, '');
begin
  v := regexp_replace(v, '[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff]',
    ' ', 'g');
  v := trim(regexp_replace(v, '\s+', ' ', 'g'));
  v := regexp_replace(v, '([.:/@\\])(\S)', '\1 \2', 'g');
  if char_length(v) > max_length then
    v := rtrim(left(v, max_length - 1)) || '…';
  end if;
  return v;
end
$function$;

