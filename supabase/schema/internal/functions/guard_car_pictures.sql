-- function internal.guard_car_pictures(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.guard_car_pictures()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  -- staff_set_car_pictures and edge_record_file_check run as their owner, not as the caller.
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  -- Raised here, not through internal.fail: the caller has no usage on the internal schema.
  if (tg_op = 'INSERT' and cardinality(new.images) > 0)
     or (tg_op = 'UPDATE' and new.images is distinct from old.images) then
    raise exception using errcode = 'P0001', message = 'pictures_through_rpc',
      detail = 'staff_set_car_pictures';
  end if;
  return new;
end
$function$;

