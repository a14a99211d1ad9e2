-- schedule push-send-sweep: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

select cron.schedule('push-send-sweep', '* * * * *', $job$select internal.invoke_edge_function('push-send', '{"type": "SWEEP"}')$job$);
