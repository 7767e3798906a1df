import { mkdir, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { RawEventInput } from '@memex/domain';
import type { Connection } from '../connection';
import { readJson, writeAtomically } from './atomic-file';
import { keyDigest } from './key-digest';

/** One request to send: a batch of a session's events, or the session's completion. */
export type SpoolEntry = (
  | { kind: 'events'; sessionId: string; branch?: string; events: RawEventInput[] }
  | { kind: 'complete'; sessionId: string; ended?: true }
) & {
  /** Times the server answered it with a 5xx: an entry it can never take must not block the rest. */
  failures?: number;
};

let sequence = 0;

/**
 * Every request goes through this directory before it is sent, and leaves it only when the
 * server has taken it (or refused it for good). So a hook killed at its deadline, or a server
 * that is down, loses nothing; a request sent twice is harmless because events carry stable
 * ids. Names sort by time, so batches go out in the order they were read.
 *
 * Entries are kept per key: hooks of projects with different keys share the state directory,
 * and one project's events must never go out with another's key. What was captured before
 * any key was set goes out with the first key configured.
 */
export class Spool {
  private readonly root: string;
  private readonly own: string;
  private readonly unconfigured: string;
  private readonly rejectedDir: string;

  constructor(stateDir: string, connection: Connection) {
    this.root = join(stateDir, 'spool');
    this.own = keyDigest(connection.apiKey);
    this.unconfigured = keyDigest(undefined);
    this.rejectedDir = join(stateDir, 'rejected');
  }

  async add(entry: SpoolEntry): Promise<void> {
    sequence += 1;
    const name = `${String(Date.now()).padStart(15, '0')}-${String(process.pid).padStart(8, '0')}-${String(sequence).padStart(6, '0')}.json`;
    await writeAtomically(join(this.root, this.own, name), JSON.stringify(entry));
  }

  /** This destination's entries (and those captured before a key was set), oldest first, as `<dir>/<name>`. */
  async pending(): Promise<string[]> {
    const dirs = this.own === this.unconfigured ? [this.own] : [this.unconfigured, this.own];
    const entries = await Promise.all(
      dirs.map(async (dir) => {
        try {
          return (await readdir(join(this.root, dir))).filter((n) => n.endsWith('.json')).map((n) => `${dir}/${n}`);
        } catch {
          return [];
        }
      }),
    );
    return entries.flat().sort((a, b) => (a.slice(17) < b.slice(17) ? -1 : a.slice(17) > b.slice(17) ? 1 : 0));
  }

  read(entry: string): Promise<SpoolEntry | undefined> {
    return readJson<SpoolEntry>(join(this.root, entry));
  }

  /** Sent. Another hook may have sent (and removed) it first. */
  async remove(entry: string): Promise<void> {
    await unlink(join(this.root, entry)).catch(() => undefined);
  }

  async rewrite(entry: string, value: SpoolEntry): Promise<void> {
    await writeAtomically(join(this.root, entry), JSON.stringify(value));
  }

  /** Refused by the server for a reason retrying cannot fix: kept aside for a person to read. */
  async reject(entry: string): Promise<void> {
    await mkdir(this.rejectedDir, { recursive: true, mode: 0o700 });
    await rename(join(this.root, entry), join(this.rejectedDir, entry.replace('/', '-'))).catch(() => undefined);
  }

  get path(): string {
    return join(this.root, this.own);
  }
}
