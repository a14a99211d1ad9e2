/**
 * The background runtime: the app's long-lived tasks, by name. The app defines how each starts
 * (`defineTask`, src/app/background-tasks.ts: src/infra cannot import src/sync) and starts the
 * runtime once the first screen has painted (`startBackground`); a feature that needs a task at
 * once asks for it by name (`keepRunning('outbox')`) instead of starting an engine itself. Each
 * task starts once per page and then schedules itself with `startPeriodic` (src/infra/periodic.ts)
 * or its own machine. Kept free of imports: the entry loads it.
 */

/** The long-lived tasks, by name. */
export type TaskName = 'catalogue' | 'outbox' | 'service-worker' | 'news';

const starters = new Map<TaskName, () => void>();
const wanted = new Set<TaskName>();
const started = new Set<TaskName>();

function startOnce(name: TaskName): void {
  const start = starters.get(name);
  if (!start || started.has(name)) return;
  started.add(name);
  start();
}

/** How a named task starts (the app defines them at start, before anything asks). */
export function defineTask(name: TaskName, start: () => void): void {
  starters.set(name, start);
  if (wanted.has(name)) startOnce(name);
}

/** Makes sure the named task runs from now on (started once per page; later calls do nothing). */
export function keepRunning(name: TaskName): void {
  wanted.add(name);
  startOnce(name);
}

/** Starts these tasks (the app calls it once the first screen has painted). */
export function startBackground(names: readonly TaskName[]): void {
  for (const name of names) keepRunning(name);
}
