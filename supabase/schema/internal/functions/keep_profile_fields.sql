-- function internal.keep_profile_fields(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.keep_profile_fields()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if (select auth.uid()) is distinct from old.id then
    return new;
  end if;
  if old.full_name <> '' and trim(coalesce(new.full_name, '')) = '' then
    perform internal.fail('invalid_name', 'full_name: required');
  end if;
  if old.phone is not null and new.phone is null then
    perform internal.fail('invalid_phone', 'phone: required');
  end if;
  if old.age is not null and new.age is null then
    perform internal.fail('invalid_age', 'age: required');
  end if;
  if old.address is not null and new.address is null then
    perform internal.fail('invalid_address', 'address: required');
  end if;
  return new;
end
$function$;

