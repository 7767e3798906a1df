import type { RawEventInput } from '@memex/domain';

/** What a session has done since it last reflected: the work worth a note for the next session. */
export interface WorkSince {
  edits: number;
  /** Failed commands a later command of the session got past. */
  fixes: number;
  /** A failure not yet followed by a command that ran. */
  failing: boolean;
  /** Already asked to reflect: once a session. */
  reflected: boolean;
}

export const NO_WORK: WorkSince = { edits: 0, fixes: 0, failing: false, reflected: false };

const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

/** The work a batch of the session's events adds: edits made, failures a later command got past. */
export function addWork(before: WorkSince, events: readonly RawEventInput[]): WorkSince {
  let { edits, fixes, failing } = before;
  for (const event of events) {
    const tool = event.metadata?.tool;
    if (event.type === 'tool_call' && typeof tool === 'string' && EDIT_TOOLS.has(tool)) edits += 1;
    if (event.type === 'error') failing = true;
    else if (event.type === 'command' && failing) {
      fixes += 1;
      failing = false;
    }
  }
  return { ...before, edits, fixes, failing };
}

/** Substantial work: something was changed or a failure was got past, and the session has not reflected yet. */
export function shouldReflect(work: WorkSince, stopHookActive: boolean): boolean {
  return !stopHookActive && !work.reflected && (work.edits > 0 || work.fixes > 0);
}

export const REFLECT_REASON = [
  'Before you stop: record with memex_remember what the next session of this project must know from this one,',
  "each with quotes of your own words or the person's: decisions and why, conventions you were given,",
  "a bug's cause and fix, work left open. Skip what the code or the commit history already says; if",
  'nothing is worth keeping, just stop.',
].join(' ');

/**
 * The Stop hook's answer that keeps Claude working one more step: `decision: "block"` with the
 * reason Claude reads (the only way a Stop hook continues the session).
 */
export function reflectOutput(): string {
  return JSON.stringify({ decision: 'block', reason: REFLECT_REASON });
}
