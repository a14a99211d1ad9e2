-- function internal.sync_block_hold(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.sync_block_hold()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if tg_op = 'UPDATE' then
    delete from internal.car_holds h where h.block_id = new.id;
  end if;
  begin
    insert into internal.car_holds (car_id, period, block_id)
    values (new.car_id, new.period, new.id);
  exception when exclusion_violation then
    perform internal.fail('block_collides', new.car_id::text);
  end;
  return null;
end
$function$;

