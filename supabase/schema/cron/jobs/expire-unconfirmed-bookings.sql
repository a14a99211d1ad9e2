-- schedule expire-unconfirmed-bookings: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

select cron.schedule('expire-unconfirmed-bookings', '* * * * *', $job$select internal.expire_unconfirmed_bookings()$job$);
