import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { transcriptToEvents } from '@memex/transcript';
import { runCli, type CliRun } from './processes';
import type { TestAppContext } from './use-test-app';

/**
 * Claude Code sessions on disk for the hook tests: a real transcript (the discount fix), each
 * session with its own id, state folder and event ids, and the payloads Claude Code sends.
 */

const FIXTURE = readFileSync(join(__dirname, '../fixtures/claude-code/session-discount-fix.jsonl'), 'utf8');
export const LINES = FIXTURE.split('\n').filter((l) => l.trim());
export const ALL_EVENTS = transcriptToEvents(FIXTURE).length;
/** Just after the first tool call: its result is read by a later hook than the call. */
export const SPLIT = LINES.findIndex((line) => line.includes('"type":"tool_use"')) + 1;

let sessionCounter = 0;

/** A Claude Code session on disk: its transcript file, its own hook state, an id. */
export function newSession() {
  sessionCounter += 1;
  const dir = mkdtempSync(join(tmpdir(), 'memex-hook-'));
  const sessionId = `7c1e2a90-5b3d-4f7e-9a61-${String(sessionCounter).padStart(12, '0')}-${process.pid}`;
  // Event ids come from the transcript's line uuids and are unique in a project: each session its own.
  const tag = (sessionCounter * 7919 + process.pid).toString(16).padStart(4, '0').slice(-4);
  return {
    sessionId,
    lines: LINES.map((line) => line.replaceAll('0b5f', tag)),
    transcript: join(dir, `${sessionId}.jsonl`),
    stateDir: join(dir, 'state'),
    cwd: '/home/dev/projects/shop-api',
  };
}
export type Session = ReturnType<typeof newSession>;

/** Hook payloads in the shapes Claude Code sends (shared/realdata/hook_payloads). */
export function payload(session: Session, event: string, extra: Record<string, unknown> = {}): string {
  const common = {
    session_id: session.sessionId,
    transcript_path: session.transcript,
    cwd: session.cwd,
    hook_event_name: event,
  };
  const byEvent: Record<string, Record<string, unknown>> = {
    SessionStart: { source: 'startup', model: 'claude-opus-4-8[1m]' },
    UserPromptSubmit: { permission_mode: 'default', prompt: 'Why does applying a discount crash the cart?' },
    PostToolUse: {
      permission_mode: 'default',
      tool_name: 'Edit',
      tool_input: { file_path: `${session.cwd}/src/cart/discount.ts`, old_string: 'a', new_string: 'b' },
      tool_response: { filePath: `${session.cwd}/src/cart/discount.ts`, userModified: false, replaceAll: false },
      tool_use_id: 'toolu_01ABC123',
      duration_ms: 12,
    },
    PreCompact: { trigger: 'auto', custom_instructions: null },
    Stop: {
      permission_mode: 'default',
      effort: { level: 'high' },
      stop_hook_active: false,
      last_assistant_message: 'The discount is now clamped; tests pass.',
      background_tasks: [],
      session_crons: [],
    },
    SessionEnd: { reason: 'other' },
  };
  return JSON.stringify({ ...common, ...byEvent[event], ...extra });
}

/**
 * No process that a SessionStart started still claims the session: its claim is gone, or older
 * than the 3 s after which hooks stop honouring it (a process stopped at its hard stop leaves it).
 */
export function backgroundDone(session: Session): boolean {
  const dir = join(session.stateDir, 'background');
  if (!existsSync(dir)) return true;
  return readdirSync(dir).every((name) => {
    try {
      return Date.now() - statSync(join(dir, name)).mtimeMs >= 3000;
    } catch {
      return true; // released between the listing and the look
    }
  });
}

/** Spooled requests, whatever key they wait for. */
export function spooled(session: Session): string[] {
  const root = join(session.stateDir, 'spool');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((dir) => readdirSync(join(root, dir)).filter((n) => n.endsWith('.json')));
}

export function context(run: CliRun): { hookEventName: string; additionalContext: string } {
  return (JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } })
    .hookSpecificOutput;
}
/** What the hooks of a session send to, and store in, the file's test app. */
export function hookHarness(ctx: TestAppContext) {
  function env(session: Session, overrides: Record<string, string> = {}): Record<string, string> {
    return {
      MEMEX_URL: ctx.server.url,
      MEMEX_API_KEY: ctx.project.apiKey,
      MEMEX_HOOK_STATE_DIR: session.stateDir,
      // No stray local project: the environment alone configures the hook.
      MEMEX_LOCAL_STATE_DIR: join(session.stateDir, 'no-local-project'),
      ...overrides,
    };
  }

  function hook(session: Session, event: string, overrides: Record<string, string> = {}, extra = {}): Promise<CliRun> {
    return runCli(['hook', event], env(session, overrides), payload(session, event, extra));
  }

  async function storedEvents(session: Session): Promise<{ total: number; distinct: number }> {
    const row = await sql<{ total: string; distinct: string }>`
      select count(*) as total, count(distinct e.event_id) as distinct
      from raw_events e join sessions s on s.id = e.session_id
      where s.project_id = ${ctx.project.projectId} and s.external_id = ${session.sessionId}`.execute(ctx.database.db);
    return { total: Number(row.rows[0]!.total), distinct: Number(row.rows[0]!.distinct) };
  }

  function sessionRow(session: Session) {
    return ctx.database.db
      .selectFrom('sessions')
      .select(['completed_at', 'ended_seq', 'last_event_seq'])
      .where('project_id', '=', ctx.project.projectId)
      .where('external_id', '=', session.sessionId)
      .executeTakeFirst();
  }

  async function completedAt(session: Session): Promise<Date | null | undefined> {
    return (await sessionRow(session))?.completed_at;
  }

  /** Whether the server was told the session ended, at its newest event. */
  async function endedAtItsEnd(session: Session): Promise<boolean> {
    const row = await sessionRow(session);
    return row !== undefined && row.ended_seq === row.last_event_seq;
  }

  return { env, hook, storedEvents, completedAt, endedAtItsEnd };
}
