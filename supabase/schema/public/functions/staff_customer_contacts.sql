-- function public.staff_customer_contacts(user_ids uuid[]): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_customer_contacts(user_ids uuid[])
 RETURNS TABLE(id uuid, full_name text, phone text, email text)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not (public.is_admin() or coalesce(auth.role(), '') = 'service_role') then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  if cardinality(user_ids) > 500 then
    perform internal.fail('invalid_payload', 'at most 500 ids');
  end if;
  return query
    select p.id, p.full_name, p.phone, u.email::text
      from public.profiles p
      join auth.users u on u.id = p.id
     where p.id = any (coalesce(user_ids, '{}'));
end
$function$;

grant execute on function public.staff_customer_contacts(user_ids uuid[]) to authenticated;
grant execute on function public.staff_customer_contacts(user_ids uuid[]) to service_role;
