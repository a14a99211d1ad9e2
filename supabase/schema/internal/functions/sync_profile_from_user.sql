-- function internal.sync_profile_from_user(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.sync_profile_from_user()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  old_meta jsonb := coalesce(old.raw_user_meta_data, '{}'::jsonb);
begin
  if jsonb_typeof(meta) <> 'object' then
    return null;
  end if;
  update public.profiles p
     set full_name = case when meta -> 'name' is distinct from old_meta -> 'name'
                          then internal.profile_value(meta, 'name', p.full_name)
                          else p.full_name end,
         phone = case when meta -> 'phone' is distinct from old_meta -> 'phone'
                      then internal.profile_value(meta, 'phone', p.phone) else p.phone end,
         age = case when meta -> 'age' is distinct from old_meta -> 'age'
                    then internal.profile_value(meta, 'age', p.age::text)::integer else p.age end,
         address = case when meta -> 'address' is distinct from old_meta -> 'address'
                        then internal.profile_value(meta, 'address', p.address) else p.address end
   where p.id = new.id;
  return null;
end
$function$;

