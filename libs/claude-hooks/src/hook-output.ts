import type { HookEvent } from './hook-payload';

/** Claude Code caps injected context at 10,000 characters and swaps longer text for a file preview. */
export const MAX_CONTEXT_CHARS = 10_000;
const CUT_NOTE = '\n\n[… cut to fit the hook output limit; the full brain is the memex://brain resource]';

export function fitContext(text: string): string {
  if (text.length <= MAX_CONTEXT_CHARS) return text;
  const room = MAX_CONTEXT_CHARS - CUT_NOTE.length;
  const cut = text.slice(0, room);
  const lineEnd = cut.lastIndexOf('\n');
  return (lineEnd > room / 2 ? cut.slice(0, lineEnd) : cut) + CUT_NOTE;
}

/**
 * The hook's stdout: JSON with `hookSpecificOutput.additionalContext`, the documented way for
 * SessionStart and UserPromptSubmit to add context. No `decision` key: anything but "block" there
 * fails Claude Code's output validation and drops the context (the Stop hook's reflection is the
 * one "block" Memex sends).
 */
export function additionalContextOutput(event: HookEvent, context: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: fitContext(context) } });
}
