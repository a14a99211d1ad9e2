/** What keeps two stacks apart: a taken port, a data directory another stack holds. */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

/** A port is taken: the message says which and what to do. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly what: string,
    envName: string,
  ) {
    super(
      `Port ${port} (${what}) is already in use. Stop the program using it (another "npm start"?) or pick another port with ${envName}=<port>.`,
    );
    this.name = 'PortInUseError';
  }
}

/** Another running stack uses this data directory (PGlite's files must have one owner). */
export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The data directory ${dataDir} is in use by another local stack (process ${pid}). Stop it, or use another directory with KIRAA_DATA_DIR=<dir>.`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** Data directories used by stacks of this process. */
const heldDataDirs = new Set<string>();

function isRunning(pid: number): boolean {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
}

/** Takes the data directory for one stack; returns the release function. */
export function lockDataDir(dataDir: string, lockFile: string): () => void {
  if (heldDataDirs.has(dataDir)) throw new DataDirInUseError(dataDir, process.pid);
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8'));
    // A lock left by a process that is gone (crashed, killed) is taken over.
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isRunning(pid)) {
      throw new DataDirInUseError(dataDir, pid);
    }
  }
  writeFileSync(lockFile, String(process.pid));
  heldDataDirs.add(dataDir);
  return () => {
    heldDataDirs.delete(dataDir);
    rmSync(lockFile, { force: true });
  };
}

export function isAddressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'EADDRINUSE';
}
