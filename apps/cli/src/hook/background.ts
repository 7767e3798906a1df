import { createHash } from 'node:crypto';
import { stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { HookEvent } from '@memex/claude-hooks';
import { readJson, writeAtomically } from './atomic-file';

/**
 * The payload of the hook that handed its reading and sending over, in the environment of the
 * process that does them; that process prints nothing.
 */
const BACKGROUND_INPUT_ENV = 'MEMEX_HOOK_BACKGROUND_INPUT';
/** Only SessionStart hands its work over: the variable set for any other hook is a stray. */
const HANDS_OVER: ReadonlySet<string> = new Set<HookEvent>(['SessionStart']);

/**
 * The handed-over payload, when this process is the one doing a hook's work in the background.
 * Taken out of the environment once read, so nothing this process might start inherits it.
 */
export function takeBackgroundInput(env: NodeJS.ProcessEnv, event: string | undefined): string | undefined {
  const input = env[BACKGROUND_INPUT_ENV];
  delete env[BACKGROUND_INPUT_ENV];
  return input && event && HANDS_OVER.has(event) ? input : undefined;
}

/** Starts the rest of a hook's work elsewhere; never fails the hook that asks. True when it started. */
export type HandOff = (event: string, input: string) => Promise<boolean>;

/**
 * Runs `memex hook <event>` again as a process of its own, the payload in its environment: in
 * a session of its own (a hook timeout ends the hook's process group, not this one), holding
 * none of the pipes Claude Code waits on, so the hook exits while it works. It has any hook's
 * time budget and hard stop; what it does not send waits in the spool for the next hook.
 */
export const handOffToBackground: HandOff = async (event, input) => {
  const launcher = process.argv[1];
  if (!launcher) return false;
  try {
    // Loaded here: every other hook run does without child_process (about 2 ms to load).
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [launcher, 'hook', event], {
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
      env: { ...process.env, [BACKGROUND_INPUT_ENV]: input },
    });
    child.once('error', () => undefined);
    child.unref();
    return true;
  } catch {
    // Could not start (spawn throws for some errors, reports others as 'error'): the work
    // stays where it is, the lines in the transcript and the requests in the spool, for the
    // next hook.
    return false;
  }
};

/**
 * A session whose new lines a background process is reading: the prompt or tool hooks that
 * follow at once (`claude -p` sends its prompt right after SessionStart) leave the transcript
 * to it instead of reading the same lines again. Longer than any hook lives, so a claim left
 * by a process that died stops counting on its own.
 */
const CLAIM_MS = 3000;

function claimFile(stateDir: string, sessionId: string): string {
  return join(stateDir, 'background', `${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}.claim`);
}

export async function claimSession(stateDir: string, sessionId: string): Promise<void> {
  await writeAtomically(claimFile(stateDir, sessionId), String(Date.now())).catch(() => undefined);
}

export async function releaseSession(stateDir: string, sessionId: string): Promise<void> {
  await unlink(claimFile(stateDir, sessionId)).catch(() => undefined);
}

export async function claimedInBackground(stateDir: string, sessionId: string, now = Date.now()): Promise<boolean> {
  try {
    return now - (await stat(claimFile(stateDir, sessionId))).mtimeMs < CLAIM_MS;
  } catch {
    return false;
  }
}

function problemFile(stateDir: string): string {
  return join(stateDir, 'background-problem.json');
}

/**
 * What went wrong in a background run, kept for the next hook to say: the background process
 * has no stderr anyone reads. Only the latest is kept.
 */
export async function keepBackgroundProblem(stateDir: string, problem: string): Promise<void> {
  await writeAtomically(problemFile(stateDir), JSON.stringify({ problem, at: new Date().toISOString() })).catch(
    () => undefined,
  );
}

/** The problem a background run kept, once: read and removed. */
export async function takeBackgroundProblem(stateDir: string): Promise<string | undefined> {
  const kept = await readJson<{ problem?: unknown; at?: unknown }>(problemFile(stateDir));
  if (!kept) return undefined;
  await unlink(problemFile(stateDir)).catch(() => undefined);
  return typeof kept.problem === 'string'
    ? `in the background after a SessionStart at ${String(kept.at)}: ${kept.problem}`
    : undefined;
}
