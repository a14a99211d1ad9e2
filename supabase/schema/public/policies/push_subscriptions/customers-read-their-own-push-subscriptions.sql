-- policy "Customers read their own push subscriptions" on public.push_subscriptions: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create policy "Customers read their own push subscriptions" on public.push_subscriptions
  as permissive for select to authenticated
  using ((user_id = ( SELECT auth.uid() AS uid)));
