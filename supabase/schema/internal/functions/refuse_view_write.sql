-- function internal.refuse_view_write(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.refuse_view_write()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  raise exception using errcode = '42501', message = 'not_allowed',
    detail = tg_table_schema || '.' || tg_table_name || ' is read-only';
end
$function$;

grant execute on function internal.refuse_view_write() to anon;
grant execute on function internal.refuse_view_write() to authenticated;
grant execute on function internal.refuse_view_write() to service_role;
