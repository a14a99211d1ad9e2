-- schedule send-mail-sweep: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

select cron.schedule('send-mail-sweep', '* * * * *', $job$select internal.invoke_edge_function('send-mail', '{"type": "SWEEP"}')$job$);
