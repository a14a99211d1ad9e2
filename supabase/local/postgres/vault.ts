/** Vault secrets the stack's functions read (webhook and cron secrets). */
import type { Db } from '../context.ts';

/** Upserts Vault secrets (the stand-in's, or Supabase Vault where it exists). */
export async function storeVaultSecrets(db: Db, secrets: Record<string, string>): Promise<void> {
  for (const [name, secret] of Object.entries(secrets)) {
    const updated = await db.query(
      'select vault.update_secret(id, $2::text) from vault.secrets where name = $1::text',
      [name, secret],
    );
    if (updated.rowCount === 0) {
      await db.query('select vault.create_secret($2::text, $1::text)', [name, secret]);
    }
  }
}
