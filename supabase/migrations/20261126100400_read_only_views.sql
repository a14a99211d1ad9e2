-- A write to a read-only view answers "not allowed", not a server error (docs/decisions.md, "Bad
-- input is a 4xx"). Postgres checks whether a view can be written before it checks privileges,
-- so an anonymous POST to public.car_reviews (a view of two tables) answered 500 ("not
-- automatically updatable") although nobody may write it. An INSTEAD OF trigger answers every
-- write to it with insufficient_privilege (PostgREST: 401 for anon, 403 for a signed-in user).

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------
create or replace function internal.refuse_view_write()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception using errcode = '42501', message = 'not_allowed',
    detail = tg_table_schema || '.' || tg_table_name || ' is read-only';
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
create trigger car_reviews_read_only
  instead of insert or update or delete on public.car_reviews
  for each row
  execute function internal.refuse_view_write();

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on function internal.refuse_view_write() from public;
-- The trigger runs as the writer: whoever reaches it may run it (it only refuses).
grant execute on function internal.refuse_view_write() to anon, authenticated, service_role;
