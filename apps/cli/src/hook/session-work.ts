import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { NO_WORK, addWork, reflectOutput, shouldReflect, type WorkSince } from '@memex/claude-hooks';
import type { HookEvent, HookPayload } from '@memex/claude-hooks';
import type { RawEventInput } from '@memex/domain';
import { readJson, writeAtomically } from './atomic-file';

function file(stateDir: string, sessionId: string): string {
  return join(stateDir, 'work', `${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}.json`);
}

/**
 * The session's work as its hooks read it (edits, failures got past), kept between hook runs;
 * at Stop, with reflection on, the one request a session gets to record what it learned.
 */
export async function trackWork(
  stateDir: string,
  event: HookEvent,
  payload: HookPayload,
  events: readonly RawEventInput[],
  reflect: boolean,
): Promise<string | undefined> {
  if (!reflect) return undefined;
  const path = file(stateDir, payload.session_id);
  const work = addWork((await readJson<WorkSince>(path)) ?? NO_WORK, events);
  const ask = event === 'Stop' && shouldReflect(work, payload.stop_hook_active === true);
  if (ask || events.length > 0)
    await writeAtomically(path, JSON.stringify({ ...work, reflected: work.reflected || ask }));
  return ask ? reflectOutput() : undefined;
}
