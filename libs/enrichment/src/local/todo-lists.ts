import type { EngineEvent } from '../candidate';

export interface TodoEntry {
  text: string;
  done: boolean;
  /** The entry's line as it stands in the event, to quote as evidence. */
  quote: string;
}

const ENTRY = /^- \[([ x~])\] (.+)$/;

/** The entries of a TodoWrite call, as the transcript reader writes them (`- [x] done`). */
function todoEntries(event: EngineEvent): TodoEntry[] | undefined {
  if (event.type !== 'tool_call' || !event.content.startsWith('TodoWrite:')) return undefined;
  return event.content.split('\n').flatMap((line) => {
    const m = ENTRY.exec(line.trim());
    return m && m[2]!.trim().length > 0 ? [{ text: m[2]!.trim(), done: m[1] === 'x', quote: line.trim() }] : [];
  });
}

/** The list as the turn left it: the last TodoWrite call in the events. */
export function lastTodoList(events: readonly EngineEvent[]): { event: EngineEvent; entries: TodoEntry[] } | undefined {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const entries = todoEntries(events[i]!);
    if (entries && entries.length > 0) return { event: events[i]!, entries };
  }
  return undefined;
}

/** An accepted plan (ExitPlanMode), as the transcript reader writes it. */
export function planOf(event: EngineEvent): string | undefined {
  if (event.type !== 'tool_call' || !event.content.startsWith('ExitPlanMode:')) return undefined;
  return event.content.slice('ExitPlanMode:'.length).trim() || undefined;
}

/** How Claude Code opens a session the person cleared to implement a plan they accepted. */
const IMPLEMENT_PLAN = /^\s*Implement the following plan:[ \t]*\n/;

/**
 * The plan a prompt carries when the person chose "clear context and implement": the
 * assistant's plan, accepted, as the new session's first prompt. It is the work's plan, not
 * the person speaking.
 */
export function planInPrompt(prompt: string): string | undefined {
  return IMPLEMENT_PLAN.test(prompt) ? prompt.replace(IMPLEMENT_PLAN, '').trim() || undefined : undefined;
}
