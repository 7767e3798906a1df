import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class HomeLockedError extends Error {
  constructor(
    readonly home: string,
    readonly pid: number,
  ) {
    super(
      `another Memex (process ${pid}) is running on ${home}: stop it first, or give this one a ` +
        'home of its own with MEMEX_HOME (two processes on one embedded database would lose writes)',
    );
    this.name = 'HomeLockedError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * Takes the embedded home for this process: a `memex.pid` file made exclusively, holding the
 * pid. PGlite has no lock of its own, and a second process on the same data directory would
 * lose its commits without an error. A file left by a process that died (`kill -9`, a power
 * cut) names a pid no longer alive, and is taken over. Returns the release.
 */
export function lockHome(home: string): () => void {
  mkdirSync(home, { recursive: true });
  const file = join(home, 'memex.pid');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        if (readPid(file) === process.pid) rmSync(file, { force: true });
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      const holder = readPid(file);
      if (holder !== undefined && holder !== process.pid && alive(holder)) throw new HomeLockedError(home, holder);
      // A dead holder's file (or one being written as we read it: then the next attempt sees it whole).
      if (holder !== undefined) rmSync(file, { force: true });
    }
  }
  throw new Error(`could not take ${file}; remove it if no Memex is running`);
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
