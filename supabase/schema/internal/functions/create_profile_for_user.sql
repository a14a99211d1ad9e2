-- function internal.create_profile_for_user(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.create_profile_for_user()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  phone text;
begin
  if jsonb_typeof(meta) <> 'object' then
    meta := '{}'::jsonb;
  end if;
  phone := nullif(trim(meta ->> 'phone'), '');
  insert into public.profiles (id, full_name, phone, age, address)
  values (
    new.id,
    coalesce(nullif(trim(meta ->> 'name'), ''), nullif(trim(meta ->> 'full_name'), ''), ''),
    coalesce(internal.normalize_phone(phone), phone),
    internal.metadata_age(meta),
    nullif(trim(meta ->> 'address'), '')
  );
  return null;
end
$function$;

