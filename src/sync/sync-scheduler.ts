import { startPeriodic } from '@/infra/periodic';
import { catalogueSync, readCatalogueStatus } from '@/sync/catalogue-sync';

let catalogueScheduler: Promise<unknown> | null = null;

/**
 * Keeps the device's catalogue fresh for as long as the app runs (src/infra/background.ts: on
 * start, back online, visible again, every 5 min, retried sooner after a failure). Idempotent.
 * The app starts it as the background task 'catalogue' (src/app/background-tasks.ts); features
 * ask for it with `keepRunning('catalogue')`. A device that has the catalogue already shows it
 * first and syncs once idle; a first visit syncs at once.
 */
export function startCatalogueScheduler(): void {
  catalogueScheduler ??= readCatalogueStatus()
    .then((status) => (status.last_success_at ? ('idle' as const) : ('now' as const)))
    .catch(() => 'now' as const)
    .then((firstRun) => startPeriodic({ run: () => catalogueSync.sync(), firstRun }));
}
