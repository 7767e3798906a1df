import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readCachedBrain, type CachedBrain } from '@memex/claude-hooks';
import { writeAtomically } from './atomic-file';
import { keyDigest } from './key-digest';

/**
 * The brain SessionStart last printed for a project, in the hooks' state directory beside
 * the spool: one file per key, named by its digest as the spool's directories are (the key
 * itself is never written), mode 0600. It holds what the hook already printed into the
 * session, nothing more.
 */
export class BrainStore {
  private readonly file: string;

  constructor(stateDir: string, apiKey: string) {
    this.file = join(stateDir, 'brain', `${keyDigest(apiKey)}.json`);
  }

  async read(tokenBudget: number): Promise<CachedBrain | undefined> {
    return readCachedBrain(await readFile(this.file, 'utf8').catch(() => undefined), tokenBudget);
  }

  /** Best effort: a full disk costs the next SessionStart a whole brain, never this one its output. */
  async write(brain: CachedBrain): Promise<void> {
    await writeAtomically(this.file, JSON.stringify(brain)).catch(() => undefined);
  }
}
