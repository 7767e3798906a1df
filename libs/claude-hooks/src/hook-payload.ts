import { z } from 'zod';

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
export const hookPayloadSchema = z.looseObject({
  session_id: z.string().trim().min(1).max(200),
  hook_event_name: z.string().optional(),
  transcript_path: z.string().min(1).optional().nullable(),
  cwd: z.string().optional().nullable(),
  prompt: z.string().optional().nullable(),
  source: z.string().optional().nullable(),
  /** Stop: Claude is already continuing because a Stop hook asked it to. */
  stop_hook_active: z.boolean().optional().nullable(),
});
export type HookPayload = z.infer<typeof hookPayloadSchema>;

/** The payload, or why it is not one (the hook then only reports and exits 0). */
export function parseHookPayload(text: string): { payload: HookPayload } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: text.trim() ? 'stdin is not JSON' : 'nothing on stdin' };
  }
  const parsed = hookPayloadSchema.safeParse(json);
  if (!parsed.success) return { problem: `payload without a usable session_id` };
  return { payload: parsed.data };
}
