import type { RawEventInput } from '@memex/domain';
import { INGEST_LIMITS, asClientId, type EventType } from '@memex/event-rules';

/**
 * Claude Code session transcripts (JSONL, one entry a line) to Memex events. The format is
 * internal to Claude Code and changes between versions (shared/reference/
 * claude_code_transcripts.md), so unknown entries are skipped, never fatal.
 *
 * Event ids derive from the entry's uuid (and block index), so reading a line again always
 * yields the same ids and ingest counts it as a duplicate.
 */

type Json = Record<string, unknown>;

const COMMAND_TOOLS = new Set(['Bash', 'bash', 'BashOutput', 'shell']);
const MAX_INPUT_CHARS = 2000;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Cuts text to the ingest limit on a character boundary, marking the cut. */
export function capContent(text: string, maxBytes: number = INGEST_LIMITS.maxContentBytes): string {
  const clean = text.split('\u0000').join('');
  if (Buffer.byteLength(clean, 'utf8') <= maxBytes) return clean;
  const marker = '\n[… truncated by memex]';
  let cut = clean.slice(0, maxBytes - marker.length);
  while (Buffer.byteLength(cut, 'utf8') > maxBytes - marker.length) cut = cut.slice(0, Math.floor(cut.length * 0.95));
  return cut + marker;
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => (isObject(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .filter(Boolean)
    .join('\n');
}

const TODO_MARK: Record<string, string> = { completed: 'x', in_progress: '~', pending: ' ' };

/**
 * A todo list as text, one entry a line: `- [x] done`, `- [~] in progress`, `- [ ] pending`.
 * The list is what a session plans and finishes, so it must stand in the event's content,
 * where evidence is quoted from.
 */
function describeTodos(todos: unknown[]): string {
  return todos
    .filter(isObject)
    .map((t) => `- [${TODO_MARK[String(t.status)] ?? ' '}] ${typeof t.content === 'string' ? t.content : ''}`)
    .join('\n');
}

/** Tool calls whose input is the content: todo lists, accepted plans, created tasks. */
function describeStructuredCall(name: string, input: Json): string | undefined {
  if (name === 'TodoWrite' && Array.isArray(input.todos)) return `TodoWrite:\n${describeTodos(input.todos)}`;
  if (name === 'ExitPlanMode' && typeof input.plan === 'string') return `ExitPlanMode:\n${input.plan}`;
  if (name === 'TaskCreate' && typeof input.subject === 'string')
    return `TaskCreate: ${input.subject}${typeof input.description === 'string' ? `\n${input.description}` : ''}`;
  return undefined;
}

/** A one-line, readable description of a tool call, e.g. `Edit src/a.ts` or `Bash: npm test`. */
function describeToolUse(name: string, input: Json): string {
  const structured = describeStructuredCall(name, input);
  if (structured) return structured;
  const path = input.file_path ?? input.path ?? input.notebook_path;
  if (typeof path === 'string') return `${name} ${path}`;
  if (typeof input.command === 'string') return `${name}: ${input.command}`;
  if (typeof input.pattern === 'string') return `${name}: ${input.pattern}`;
  if (typeof input.description === 'string') return `${name}: ${input.description}`;
  return name;
}

/**
 * A worktree Claude Code made inside the project (EnterWorktree, an agent's `isolation:
 * worktree`, or the `.worktrees/` many set up by hand) is a checkout of the same project: its
 * `src/a.ts` is the project's `src/a.ts`.
 */
const WORKTREE = /^(?:\.claude\/worktrees|\.worktrees)\/[^/]+\//;

/** Paths inside the session's root become relative to it: the project is the root. */
function relativize(value: string, root: string | undefined): string {
  if (!root || !value.startsWith('/')) return value;
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return value.startsWith(prefix) ? value.slice(prefix.length).replace(WORKTREE, '') : value;
}

function relativizeInput(input: Json, root: string | undefined): Json {
  const out: Json = { ...input };
  for (const key of ['file_path', 'path', 'notebook_path']) {
    if (typeof out[key] === 'string') out[key] = relativize(out[key] as string, root);
  }
  return out;
}

function trimInput(input: Json): Json {
  const text = JSON.stringify(input);
  if (text.length <= MAX_INPUT_CHARS) return input;
  const small: Json = {};
  for (const [k, v] of Object.entries(input)) {
    small[k] = typeof v === 'string' && v.length > 300 ? `${v.slice(0, 300)}…` : v;
  }
  return JSON.stringify(small).length <= MAX_INPUT_CHARS ? small : { truncated: true };
}

export interface TranscriptState {
  /** tool_use id → tool name (and command), so results can say which call they answer. */
  tools: Map<string, { name: string; command?: string }>;
  /**
   * The directory the session started in, its project's root. Claude Code's `cwd` follows the
   * shell: after `cd packages/codegen` a path made relative to it ("package.json") would name
   * another file than the project's own.
   */
  root?: string;
}

export function newTranscriptState(root?: string): TranscriptState {
  return { tools: new Map(), ...(root ? { root } : {}) };
}

function event(
  id: string,
  type: EventType,
  timestamp: string,
  content: string,
  metadata?: Json,
): RawEventInput | undefined {
  const text = capContent(content);
  if (!text.trim()) return undefined;
  return { eventId: id, type, timestamp, content: text, ...(metadata ? { metadata } : {}) };
}

/** The events of one transcript entry (one JSONL line, parsed). */
export function entryToEvents(entry: unknown, state: TranscriptState = newTranscriptState()): RawEventInput[] {
  if (!isObject(entry)) return [];
  // Any line naming a directory names where the session is: the first one is where it began.
  if (state.root === undefined && typeof entry.cwd === 'string' && entry.cwd) state.root = entry.cwd;
  // An archiver may have rewritten a uuid (`…[REDACTED_CARD]…`); block ids add `:<index>`.
  const uuid = typeof entry.uuid === 'string' ? asClientId(entry.uuid, INGEST_LIMITS.maxIdLength - 10) : undefined;
  const timestamp = typeof entry.timestamp === 'string' ? entry.timestamp : undefined;
  const message = isObject(entry.message) ? entry.message : undefined;
  if (!uuid || !timestamp || !message) return [];
  // Subagent lines and harness-injected lines are not the session's own conversation.
  if (entry.isSidechain === true || entry.isMeta === true) return [];

  const out: Array<RawEventInput | undefined> = [];
  const content = message.content;
  if (entry.type === 'user') {
    if (entry.isCompactSummary === true)
      return [event(`${uuid}`, 'note', timestamp, blockText(content), { kind: 'compact-summary' })].filter(isEvent);
    if (typeof content === 'string') out.push(event(uuid, 'prompt', timestamp, content));
    else if (Array.isArray(content)) {
      content.forEach((block, i) => {
        if (!isObject(block)) return;
        const id = `${uuid}:${i}`;
        if (block.type === 'text' && typeof block.text === 'string')
          out.push(event(id, 'prompt', timestamp, block.text));
        if (block.type === 'tool_result') {
          const toolUseId = typeof block.tool_use_id === 'string' ? block.tool_use_id : undefined;
          const call = toolUseId ? state.tools.get(toolUseId) : undefined;
          const tool = call?.name;
          const text = blockText(block.content);
          // Claude Code's own complaint about a tool call, not a failure in the project.
          const isError = block.is_error === true && !text.trimStart().startsWith('<tool_use_error>');
          const type: EventType = isError ? 'error' : tool && COMMAND_TOOLS.has(tool) ? 'command' : 'tool_result';
          out.push(
            event(id, type, timestamp, text, {
              ...(toolUseId ? { toolUseId } : {}),
              ...(tool ? { tool } : {}),
              ...(call?.command ? { command: call.command } : {}),
              ...(isError ? { isError: true } : {}),
            }),
          );
        }
      });
    }
  } else if (entry.type === 'assistant' && Array.isArray(content)) {
    content.forEach((block, i) => {
      if (!isObject(block)) return;
      const id = `${uuid}:${i}`;
      if (block.type === 'text' && typeof block.text === 'string')
        out.push(event(id, 'response', timestamp, block.text));
      if (block.type === 'tool_use' && typeof block.name === 'string') {
        const input = relativizeInput(isObject(block.input) ? block.input : {}, state.root);
        if (typeof block.id === 'string') {
          state.tools.set(block.id, {
            name: block.name,
            ...(typeof input.command === 'string' ? { command: input.command.slice(0, 500) } : {}),
          });
        }
        out.push(
          event(id, 'tool_call', timestamp, describeToolUse(block.name, input), {
            tool: block.name,
            ...(typeof block.id === 'string' ? { toolUseId: block.id } : {}),
            input: trimInput(input),
          }),
        );
      }
    });
  }
  return out.filter(isEvent);
}

function isEvent(e: RawEventInput | undefined): e is RawEventInput {
  return e !== undefined;
}

/** Every event of a whole transcript text; lines that are not JSON are skipped. */
export function transcriptToEvents(jsonl: string): RawEventInput[] {
  const state = newTranscriptState();
  return jsonl.split('\n').flatMap((line) => {
    if (!line.trim()) return [];
    try {
      return entryToEvents(JSON.parse(line), state);
    } catch {
      return [];
    }
  });
}
