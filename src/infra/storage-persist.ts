import { msg } from '@lingui/core/macro';

import { i18n } from '@/infra/i18n';
import { showToast } from '@/infra/toast';

/**
 * Persistent storage: without it the browser may evict IndexedDB (the catalogue, the outbox and
 * the bookings saved on this device) when the disk runs low. The app asks at the moments the data
 * starts to matter: after the app is installed and after the first booking (docs/pwa.md).
 */
export type PersistResult = 'granted' | 'denied' | 'unsupported';

let warned = false;

/**
 * Asks the browser to keep this site's data. Resolves 'granted' when it is (or already was)
 * persistent; on 'denied' it warns once per visit that offline data could be evicted,
 * unless `warn` is false.
 */
export async function requestPersistentStorage({ warn = true } = {}): Promise<PersistResult> {
  const storage = typeof navigator !== 'undefined' ? navigator.storage : undefined;
  if (!storage?.persist) return 'unsupported';
  try {
    if (await storage.persisted()) return 'granted';
    if (await storage.persist()) return 'granted';
  } catch (error) {
    console.warn('storage: persist() failed', error);
  }
  if (warn && !warned) {
    warned = true;
    showToast(
      i18n._(
        msg`Votre navigateur peut effacer les données enregistrées sur cet appareil (réservations hors ligne). Installez Kiraa sur l’écran d’accueil pour les protéger.`,
      ),
      { id: 'storage-not-persistent', kind: 'warning' },
    );
  }
  return 'denied';
}

/** For tests: allow the warning again. */
export function resetPersistWarning(): void {
  warned = false;
}
