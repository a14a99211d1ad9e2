-- function internal.record_guest_upload(): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION internal.record_guest_upload()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if new.owner is null and new.bucket_id in ('licenses', 'flight-documents') then
    insert into internal.guest_uploads (bucket_id, name, client_key, size_bytes)
    values (new.bucket_id, new.name, left(internal.client_address_key(), 64),
      internal.object_size(new.metadata))
    on conflict (bucket_id, name) do update
      set client_key = excluded.client_key, size_bytes = excluded.size_bytes, created_at = now();
  end if;
  return null;
end
$function$;

