/** The Claude Code hook events Memex installs a handler for. */
export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PreCompact',
  'Stop',
  'SessionEnd',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export function isHookEvent(value: string): value is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(value);
}

/** A session's work so far is worth enriching: before compaction drops context, at a turn's end, at exit. */
export function completesSession(event: HookEvent): boolean {
  return event === 'PreCompact' || event === 'Stop' || event === 'SessionEnd';
}

/**
 * The fields Memex reads. Claude Code adds fields between versions and older builds send
 * fewer (shared/reference/claude_code_hooks.md "Version drift"), so everything beyond the
 * session id is optional and unknown fields pass.
 */
export interface HookPayload {
  session_id: string;
  hook_event_name?: string;
  transcript_path?: string | null;
  cwd?: string | null;
  prompt?: string | null;
  source?: string | null;
  /** Stop: Claude is already continuing because a Stop hook asked it to. */
  stop_hook_active?: boolean | null;
  [field: string]: unknown;
}

/** The optional fields, each with the type it must have when present and not null. */
const OPTIONAL_FIELDS: Record<string, 'string' | 'boolean'> = {
  transcript_path: 'string',
  cwd: 'string',
  prompt: 'string',
  source: 'string',
  stop_hook_active: 'boolean',
};

/**
 * The payload, or why it is not one (the hook then only reports and exits 0). Checked by
 * hand rather than with a zod schema: every hook is a new process, and loading zod is a third
 * of a hook's start-up; what a hook reads is these few fields.
 */
export function parseHookPayload(text: string): { payload: HookPayload } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: text.trim() ? 'stdin is not JSON' : 'nothing on stdin' };
  }
  const unusable = { problem: 'payload without a usable session_id' };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return unusable;
  const fields = json as Record<string, unknown>;
  const sessionId = typeof fields.session_id === 'string' ? fields.session_id.trim() : '';
  if (sessionId.length < 1 || sessionId.length > 200) return unusable;
  if (fields.hook_event_name !== undefined && typeof fields.hook_event_name !== 'string') return unusable;
  for (const [name, type] of Object.entries(OPTIONAL_FIELDS)) {
    const value = fields[name];
    if (value !== undefined && value !== null && typeof value !== type) return unusable;
  }
  if (fields.transcript_path === '') return unusable;
  return { payload: { ...fields, session_id: sessionId } };
}
