-- trigger push_outbox_send on internal.push_outbox: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER push_outbox_send AFTER INSERT ON internal.push_outbox FOR EACH STATEMENT EXECUTE FUNCTION internal.push_outbox_webhook();
