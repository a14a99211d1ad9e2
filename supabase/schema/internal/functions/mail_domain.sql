-- function internal.mail_domain(mailbox text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.mail_domain(mailbox text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
begin
  return nullif(split_part(lower(trim(coalesce(mailbox, ''))), '@', 2), '');
end
$function$;

