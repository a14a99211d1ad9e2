-- A booking file's folder tested without a regular expression built for each booking: the pattern
-- `'^' || booking_id || '/[^/]+$'` was new at every call, and PostgreSQL compiles a pattern it
-- has not cached (it keeps 32): on every create_booking, for the licence and the flight document.
-- Same answers: `{booking_id}/{name}`, a name of one character or more without '/'.

create or replace function internal.booking_file_exists(bucket text, booking_id uuid, path text)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  folder text := booking_id::text || '/';
begin
  if path is null or not starts_with(path, folder) or char_length(path) = char_length(folder)
     or strpos(substr(path, char_length(folder) + 1), '/') > 0 then
    return false;
  end if;
  perform 1 from storage.objects o
   where o.bucket_id = bucket and o.name = path
     for key share;
  return found;
end
$$;
