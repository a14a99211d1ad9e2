-- policy "Admins and the booking's customer read pickup and return record" on public.booking_handovers: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Admins and the booking's customer read pickup and return record" on public.booking_handovers
  as permissive for select to authenticated
  using ((( SELECT is_admin() AS is_admin) OR (EXISTS ( SELECT 1
   FROM bookings b
  WHERE ((b.id = booking_handovers.booking_id) AND (b.user_id = ( SELECT auth.uid() AS uid)))))));
