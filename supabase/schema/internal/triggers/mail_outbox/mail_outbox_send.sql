-- trigger mail_outbox_send on internal.mail_outbox: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE TRIGGER mail_outbox_send AFTER INSERT ON internal.mail_outbox FOR EACH STATEMENT EXECUTE FUNCTION internal.mail_outbox_webhook();
