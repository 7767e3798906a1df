import { mkdir, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { RawEventInput } from '@memex/domain';
import { readJson, writeAtomically } from './atomic-file';

/** One request to send: a batch of a session's events, or the session's completion. */
export type SpoolEntry =
  | { kind: 'events'; sessionId: string; branch?: string; events: RawEventInput[] }
  | { kind: 'complete'; sessionId: string };

let sequence = 0;

/**
 * Every request goes through this directory before it is sent, and leaves it only when the
 * server has taken it (or refused it for good). So a hook killed at its deadline, or a server
 * that is down, loses nothing; a request sent twice is harmless because events carry stable
 * ids. Names sort by time, so batches go out in the order they were read.
 */
export class Spool {
  private readonly dir: string;
  private readonly rejectedDir: string;

  constructor(stateDir: string) {
    this.dir = join(stateDir, 'spool');
    this.rejectedDir = join(stateDir, 'rejected');
  }

  async add(entry: SpoolEntry): Promise<void> {
    sequence += 1;
    const name = `${String(Date.now()).padStart(15, '0')}-${String(process.pid).padStart(8, '0')}-${String(sequence).padStart(6, '0')}.json`;
    await writeAtomically(join(this.dir, name), JSON.stringify(entry));
  }

  async pending(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter((name) => name.endsWith('.json')).sort();
    } catch {
      return [];
    }
  }

  read(name: string): Promise<SpoolEntry | undefined> {
    return readJson<SpoolEntry>(join(this.dir, name));
  }

  /** Sent. Another hook may have sent (and removed) it first. */
  async remove(name: string): Promise<void> {
    await unlink(join(this.dir, name)).catch(() => undefined);
  }

  /** Refused by the server for a reason retrying cannot fix: kept aside for a person to read. */
  async reject(name: string): Promise<void> {
    await mkdir(this.rejectedDir, { recursive: true, mode: 0o700 });
    await rename(join(this.dir, name), join(this.rejectedDir, name)).catch(() => undefined);
  }

  get path(): string {
    return this.dir;
  }
}
