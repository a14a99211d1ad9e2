-- The account page (docs/accounts.md, "Account settings") lets customers edit their profile; the
-- sign-up's rule "every field is required" now holds in SQL for those edits too: a customer may
-- change a field but not empty one that has a value (check_profile_text already refuses an empty
-- address or phone; this adds a blank name and a removed phone, age or address). Operators (SQL,
-- service role) may still clear fields, e.g. to anonymise an account that keeps its bookings.

create or replace function internal.keep_profile_fields()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

revoke all on function internal.keep_profile_fields() from public;

create trigger profiles_keep_fields
  before update of full_name, phone, address, age on public.profiles
  for each row
  execute function internal.keep_profile_fields();
