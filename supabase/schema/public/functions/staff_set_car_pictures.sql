-- function public.staff_set_car_pictures(car_id uuid, pictures text[]): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.staff_set_car_pictures(car_id uuid, pictures text[])
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c public.cars;
  entry text;
  prefix text := internal.car_picture_path(staff_set_car_pictures.car_id::text || '/');
  object_name text;
  object_type text;
  wanted text[] := coalesce(staff_set_car_pictures.pictures, '{}');
begin
  if not public.is_admin() then
    perform internal.fail('not_allowed', 'staff only');
  end if;
  select * into c from public.cars x where x.id = staff_set_car_pictures.car_id for update;
  if not found then
    perform internal.fail('car_not_found', coalesce(staff_set_car_pictures.car_id::text, 'car_id'));
  end if;
  if cardinality(wanted) > internal.app_limit('car_pictures') then
    perform internal.fail('too_many_pictures', 'at most ' || internal.app_limit('car_pictures'));
  end if;
  if (select count(distinct e) from unnest(wanted) e) <> cardinality(wanted) then
    perform internal.fail('duplicate_picture', 'pictures');
  end if;
  foreach entry in array wanted loop
    if entry is null then
      perform internal.fail('invalid_picture', 'null');
    end if;
    continue when entry = any (c.images);
    if left(entry, char_length(prefix)) <> prefix
       or substr(entry, char_length(prefix) + 1) !~ '^[a-z0-9][a-z0-9-]{0,63}\.(webp|jpg|png)$' then
      perform internal.fail('invalid_picture', entry);
    end if;
    object_name := staff_set_car_pictures.car_id::text || '/' || substr(entry, char_length(prefix) + 1);
    select o.metadata ->> 'mimetype' into object_type
      from storage.objects o
     where o.bucket_id = 'cars' and o.name = object_name;
    if not found then
      perform internal.fail('picture_not_found', object_name);
    end if;
    if object_type is null or object_type not in ('image/jpeg', 'image/png', 'image/webp') then
      perform internal.fail('not_an_image', object_name);
    end if;
    if exists (select from internal.upload_checks k
                where k.bucket_id = 'cars' and k.name = object_name and k.verdict = 'rejected') then
      perform internal.fail('picture_rejected', object_name);
    end if;
  end loop;
  update public.cars x set images = wanted where x.id = c.id returning * into c;
  return jsonb_build_object('id', c.id, 'images', to_jsonb(c.images), 'updated_at', c.updated_at);
end
$function$;

grant execute on function public.staff_set_car_pictures(car_id uuid, pictures text[]) to authenticated;
grant execute on function public.staff_set_car_pictures(car_id uuid, pictures text[]) to service_role;
