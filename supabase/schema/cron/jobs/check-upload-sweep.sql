-- schedule check-upload-sweep: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

select cron.schedule('check-upload-sweep', '* * * * *', $job$select internal.invoke_edge_function('check-upload', '{"type": "SWEEP"}')$job$);
