-- function internal.require_writable(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.require_writable()
 RETURNS void
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  if current_setting('transaction_read_only') = 'on' then
    raise exception using errcode = 'PT405', message = 'method_not_allowed',
      detail = 'this function records attempts: call it with POST';
  end if;
end
$function$;

