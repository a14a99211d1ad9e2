-- function internal.check_profile_text(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.check_profile_text()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  problem text;
begin
  if new.full_name <> '' then
    problem := internal.profile_field_problem(jsonb_build_object('name', new.full_name), 'name');
    if problem is not null then
      perform internal.fail('invalid_name', 'full_name: ' || problem);
    end if;
    new.full_name := trim(new.full_name);
  end if;
  if new.phone is not null then
    if internal.normalize_phone(new.phone) is null then
      perform internal.fail('invalid_phone', 'phone: format');
    end if;
    new.phone := internal.normalize_phone(new.phone);
  end if;
  if new.address is not null then
    problem := internal.profile_field_problem(jsonb_build_object('address', new.address), 'address');
    if problem is not null then
      perform internal.fail('invalid_address', 'address: ' || problem);
    end if;
    new.address := trim(new.address);
  end if;
  if new.age is not null and (new.age < internal.app_limit('age_min') or new.age > internal.app_limit('age_max')) then
    perform internal.fail('invalid_age', 'age: ' || case when new.age < internal.app_limit('age_min') then 'under_age' else 'too_old' end);
  end if;
  return new;
end
$function$;

