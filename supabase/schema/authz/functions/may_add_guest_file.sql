-- function authz.may_add_guest_file(bucket text, name text, metadata jsonb): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION authz.may_add_guest_file(bucket text, name text, metadata jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  folder uuid := authz.booking_folder(name);
  caller text := internal.client_address_key();
  budget bigint;
  used bigint;
begin
  if folder is null then
    return false;
  end if;
  -- Another file in the folder is refused; the same one again passes here, so its upload answers
  -- 409 Duplicate (the device's retry of an upload whose answer was lost treats that as done).
  if exists (
    select from storage.objects o
     where o.bucket_id = bucket and o.name like folder::text || '/%'
       and o.name <> may_add_guest_file.name
  ) then
    return false;
  end if;
  if caller is null then
    return true;
  end if;
  select coalesce(max(s.max_guest_upload_mb_per_address_hour), 20)::bigint * 1024 * 1024
    into budget
    from public.settings s where s.id = 1;
  select coalesce(sum(u.size_bytes), 0) into used
    from internal.guest_uploads u
   where u.client_key = caller
     and u.created_at > now() - interval '1 hour'
     and (u.bucket_id, u.name) <> (bucket, may_add_guest_file.name)
     and not internal.booking_names_file(u.bucket_id, u.name);
  return used + internal.object_size(metadata) <= budget;
end
$function$;

grant execute on function authz.may_add_guest_file(bucket text, name text, metadata jsonb) to anon;
