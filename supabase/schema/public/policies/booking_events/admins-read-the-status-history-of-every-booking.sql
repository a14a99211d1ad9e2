-- policy "Admins read the status history of every booking" on public.booking_events: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Admins read the status history of every booking" on public.booking_events
  as permissive for select to authenticated
  using (( SELECT is_admin() AS is_admin));
