/**
 * Child processes of the stack (PostgREST, the Edge Functions' Deno workers) die with it,
 * whatever the exit path: a normal exit, an uncaught exception, process.exit from a signal
 * handler, and even a SIGKILL of this process (a watchdog).
 */
import { spawn, type ChildProcess } from 'node:child_process';

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * Kills `child` within a second if this process disappears without running its exit handlers
 * (SIGKILL, out of memory): a tiny shell loop that outlives us only as long as the child does.
 */
function watchdog(child: ChildProcess): void {
  if (process.platform === 'win32' || !child.pid) return;
  const script = `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${child.pid} 2>/dev/null; do sleep 1; done; kill -9 ${child.pid} 2>/dev/null`;
  spawn('/bin/sh', ['-c', script], { stdio: 'ignore', detached: true }).unref();
}

/** Ties `child`'s life to this process's. */
export function holdChild(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
  watchdog(child);
}
