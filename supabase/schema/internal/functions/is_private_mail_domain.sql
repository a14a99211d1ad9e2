-- function internal.is_private_mail_domain(domain text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.is_private_mail_domain(domain text)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  return domain is not null
     and not exists (select from internal.mail_providers m where m.domain = is_private_mail_domain.domain);
end
$function$;

