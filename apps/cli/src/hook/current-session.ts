import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { HookPayload } from '@memex/claude-hooks';
import { readJson, writeAtomically } from './atomic-file';

/** The session a project directory last ran, as its hooks saw it: what `memex mcp` flushes before a memory. */
export interface CurrentSession {
  session_id: string;
  transcript_path: string;
}

/** Claude Code tells hooks (and the servers it starts) the project's directory; the process's own is the fallback. */
export function projectDir(env: NodeJS.ProcessEnv, cwd: string): string {
  return env.CLAUDE_PROJECT_DIR || cwd;
}

function file(stateDir: string, dir: string): string {
  return join(stateDir, 'current', `${createHash('sha256').update(dir).digest('hex').slice(0, 32)}.json`);
}

export async function noteCurrentSession(stateDir: string, dir: string, payload: HookPayload): Promise<void> {
  if (!payload.transcript_path) return;
  const current: CurrentSession = { session_id: payload.session_id, transcript_path: payload.transcript_path };
  await writeAtomically(file(stateDir, dir), JSON.stringify(current));
}

export function currentSession(stateDir: string, dir: string): Promise<CurrentSession | undefined> {
  return readJson<CurrentSession>(file(stateDir, dir));
}
