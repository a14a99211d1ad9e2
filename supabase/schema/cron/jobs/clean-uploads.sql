-- schedule clean-uploads: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

select cron.schedule('clean-uploads', '17 3 * * *', $job$select internal.invoke_edge_function('clean-uploads', '{"type": "SWEEP"}')$job$);
