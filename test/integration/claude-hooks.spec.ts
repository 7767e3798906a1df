import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { sql } from 'kysely';
import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { transcriptToEvents } from '@memex/transcript';
import { insertItem } from '../support/items';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { HttpRecorder } from '../support/http-recorder';
import { MEMEX_BIN, freePort, runCli, type CliRun } from '../support/processes';
import { useTestApp } from '../support/use-test-app';
import { waitFor } from '../support/wait';
import { request } from '../support/http';
import { ADMIN_TOKEN } from '../support/test-app';
import { mergeClaudeSettings } from '@memex/claude-hooks';
import { randomOf } from '../../libs/redaction/src/secret-corpus.fixture';

const ctx = useTestApp([IngestApiModule, BrainApiModule]);

const FIXTURE = readFileSync(join(__dirname, '../fixtures/claude-code/session-discount-fix.jsonl'), 'utf8');
const LINES = FIXTURE.split('\n').filter((l) => l.trim());
const ALL_EVENTS = transcriptToEvents(FIXTURE).length;
/** Just after the first tool call: its result is read by a later hook than the call. */
const SPLIT = LINES.findIndex((line) => line.includes('"type":"tool_use"')) + 1;

let sessionCounter = 0;

/** A Claude Code session on disk: its transcript file, its own hook state, an id. */
function newSession() {
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
type Session = ReturnType<typeof newSession>;

/** Hook payloads in the shapes Claude Code sends (shared/realdata/hook_payloads). */
function payload(session: Session, event: string, extra: Record<string, unknown> = {}): string {
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

async function completedAt(session: Session): Promise<Date | null | undefined> {
  const row = await ctx.database.db
    .selectFrom('sessions')
    .select('completed_at')
    .where('project_id', '=', ctx.project.projectId)
    .where('external_id', '=', session.sessionId)
    .executeTakeFirst();
  return row?.completed_at;
}

/**
 * No process that a SessionStart started still claims the session: its claim is gone, or older
 * than the 3 s after which hooks stop honouring it (a process stopped at its hard stop leaves it).
 */
function backgroundDone(session: Session): boolean {
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
function spooled(session: Session): string[] {
  const root = join(session.stateDir, 'spool');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((dir) => readdirSync(join(root, dir)).filter((n) => n.endsWith('.json')));
}

function context(run: CliRun): { hookEventName: string; additionalContext: string } {
  return (JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } })
    .hookSpecificOutput;
}

describe('memex hook, with Memex up', () => {
  const session = newSession();
  const title = 'Discounts are clamped to the cart subtotal';

  beforeAll(async () => {
    await insertItem(ctx.database.db, ctx.project.projectId, {
      type: 'Decision',
      title,
      facts: 'applyDiscount clamps the discount to the cart subtotal so totals never go negative.',
    });
  });

  it('SessionStart prints the brain as additional context, and a process of its own stores the transcript so far', async () => {
    // The first half, and a line Claude Code is still writing.
    const half = SPLIT;
    const partial = session.lines[half]!.slice(0, 40);
    writeFileSync(session.transcript, `${session.lines.slice(0, half).join('\n')}\n${partial}`);

    const run = await hook(session, 'SessionStart');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(context(run).hookEventName).toBe('SessionStart');
    expect(context(run).additionalContext).toContain('# Project brain');
    expect(context(run).additionalContext).toContain(title);
    expect(context(run).additionalContext.length).toBeLessThanOrEqual(10_000);
    // Two lines ask the assistant to record what it learns as it goes, with its words as evidence.
    expect(context(run).additionalContext).toContain(
      "As you work, record with memex_remember a decision and why, a convention you were given, a bug's cause and fix, or work left open,",
    );

    const firstHalf = transcriptToEvents(session.lines.slice(0, half).join('\n')).length;
    expect(firstHalf).toBeGreaterThan(0);
    await waitFor(async () => (await storedEvents(session)).total === firstHalf && spooled(session).length === 0);
    expect(await storedEvents(session)).toEqual({ total: firstHalf, distinct: firstHalf });
  });

  it('PostToolUse reads on from where it stopped, the half-written line included, and never twice', async () => {
    const half = SPLIT;
    appendFileSync(
      session.transcript,
      `${session.lines[half]!.slice(40)}\n${session.lines.slice(half + 1).join('\n')}\n`,
    );

    const run = await hook(session, 'PostToolUse');
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await storedEvents(session)).toEqual({ total: ALL_EVENTS, distinct: ALL_EVENTS });

    // Nothing new: nothing sent again. A lost cursor re-reads everything; ids keep it single.
    await hook(session, 'PostToolUse');
    writeFileSync(join(session.stateDir, 'sessions', readdirSync(join(session.stateDir, 'sessions'))[0]!), '{}');
    await hook(session, 'PostToolUse');
    expect(await storedEvents(session)).toEqual({ total: ALL_EVENTS, distinct: ALL_EVENTS });
  });

  it('tool results read in a later hook still name their tool', async () => {
    const rows = await sql<{ type: string; tool: string | null }>`
      select e.type, e.metadata->>'tool' as tool from raw_events e join sessions s on s.id = e.session_id
      where s.external_id = ${session.sessionId} and e.type in ('command', 'tool_result', 'error')`.execute(
      ctx.database.db,
    );
    expect(LINES[SPLIT]).toContain('"type":"tool_result"');
    expect(rows.rows.length).toBeGreaterThan(0);
    expect(rows.rows.every((r) => r.tool !== null)).toBe(true);
  });

  it('UserPromptSubmit prints a context pack for the prompt, and nothing when turned off', async () => {
    const run = await hook(session, 'UserPromptSubmit', {}, { prompt: 'How are cart discounts clamped?' });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(context(run).hookEventName).toBe('UserPromptSubmit');
    expect(context(run).additionalContext).toContain(title);
    // The session is known: its pack starts from its task stack, the session's first prompt as the goal.
    expect(context(run).additionalContext).toMatch(/\n- _goal:_ \S/);

    const off = await hook(session, 'UserPromptSubmit', { MEMEX_HOOK_CONTEXT_TOKENS: '0' });
    expect(off).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const slash = await hook(session, 'UserPromptSubmit', {}, { prompt: '/compact' });
    expect(slash).toMatchObject({ code: 0, stdout: '' });
  });

  it.each(['Stop', 'PreCompact', 'SessionEnd'])('%s completes the session', async (event) => {
    const own = newSession();
    writeFileSync(own.transcript, `${own.lines.slice(0, 6).join('\n')}\n`);
    const run = await hook(own, event);
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await completedAt(own)).toBeInstanceOf(Date);
    expect(spooled(own)).toEqual([]);
  });

  it('SessionStart prints the brain without waiting for the transcript to be sent; what cannot be sent waits in the spool', async () => {
    // The events endpoint answers 1 s late, the brain at once. (The handed-over process has the
    // hook's budget, 1.8 s, for the whole send: at 1.5 s a loaded CI machine ran out of it.)
    const slow = await new HttpRecorder(ctx.server.url).hold('POST', '/api/v2/events', 1000).start();
    try {
      const resumed = newSession();
      writeFileSync(resumed.transcript, `${resumed.lines.join('\n')}\n`);
      const run = await hook(resumed, 'SessionStart', { MEMEX_URL: slow.url });
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(context(run).additionalContext).toContain('# Project brain');
      // The hook has printed and exited while the server still holds the events it was handed.
      expect(slow.exchanges.filter((e) => e.method === 'POST')).toEqual([]);
      await waitFor(async () => (await storedEvents(resumed)).total === ALL_EVENTS && spooled(resumed).length === 0);
      expect(await storedEvents(resumed)).toEqual({ total: ALL_EVENTS, distinct: ALL_EVENTS });
    } finally {
      await slow.stop();
    }

    const offline = newSession();
    writeFileSync(offline.transcript, `${offline.lines.join('\n')}\n`);
    const down = await hook(offline, 'SessionStart', { MEMEX_URL: `http://127.0.0.1:${await freePort()}` });
    expect(down).toMatchObject({ code: 0, stdout: '' });
    await waitFor(() => spooled(offline).length > 0 && backgroundDone(offline));
    expect(await storedEvents(offline)).toEqual({ total: 0, distinct: 0 });
    expect(await hook(offline, 'PostToolUse')).toMatchObject({ code: 0, stderr: '' });
    expect(await storedEvents(offline)).toEqual({ total: ALL_EVENTS, distinct: ALL_EVENTS });
  });

  it('a prompt right after a SessionStart that handed its lines over leaves them to that process: each sent once', async () => {
    // As `claude -p` does: the prompt's hook starts as soon as SessionStart has printed.
    const slow = await new HttpRecorder(ctx.server.url).hold('POST', '/api/v2/events', 1000).start();
    try {
      const resumed = newSession();
      writeFileSync(resumed.transcript, `${resumed.lines.join('\n')}\n`);
      const overrides = { MEMEX_URL: slow.url, MEMEX_HOOK_CONTEXT_TOKENS: '0' };
      expect(await hook(resumed, 'SessionStart', overrides)).toMatchObject({ code: 0, stderr: '' });
      expect(await hook(resumed, 'UserPromptSubmit', overrides)).toMatchObject({ code: 0, stderr: '' });
      await waitFor(async () => (await storedEvents(resumed)).total === ALL_EVENTS && spooled(resumed).length === 0);
      await waitFor(() => backgroundDone(resumed));
      expect(slow.exchanges.filter((e) => e.method === 'POST' && e.path === '/api/v2/events')).toHaveLength(1);
      // The turn's end reads on from where the background process stopped, as any hook does.
      appendFileSync(resumed.transcript, `${resumed.lines.slice(0, 2).join('\n')}\n`);
      expect(await hook(resumed, 'Stop', overrides)).toMatchObject({ code: 0, stderr: '' });
      expect(await storedEvents(resumed)).toEqual({ total: ALL_EVENTS, distinct: ALL_EVENTS });
    } finally {
      await slow.stop();
    }
  });

  it("says what went wrong in SessionStart's background work at the next hook, once", async () => {
    const resumed = newSession();
    writeFileSync(resumed.transcript, `${resumed.lines.join('\n')}\n`);
    const start = await hook(resumed, 'SessionStart', { REDACT_EXTRA_PATTERNS: 'not json' });
    // The session's own hook says nothing of it: the background process met it after it exited.
    expect(start).toMatchObject({ code: 0, stderr: '' });
    await waitFor(() => existsSync(join(resumed.stateDir, 'background-problem.json')));
    await waitFor(async () => (await storedEvents(resumed)).total === ALL_EVENTS);

    const next = await hook(resumed, 'UserPromptSubmit', { MEMEX_HOOK_CONTEXT_TOKENS: '0' });
    expect(next.stderr.trim().split('\n')).toHaveLength(1);
    expect(next.stderr).toMatch(
      /^memex hook UserPromptSubmit: in the background after a SessionStart at \S+: REDACT_EXTRA_PATTERNS ignored/,
    );
    expect(await hook(resumed, 'Stop')).toMatchObject({ code: 0, stderr: '' });
  });

  it('SessionEnd of a session with nothing captured is quiet', async () => {
    const empty = newSession();
    const run = await hook(empty, 'SessionEnd');
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await completedAt(empty)).toBeUndefined();
    expect(spooled(empty)).toEqual([]);
  });

  it('stands aside when MEMEX_HOOKS=off (the sessions Memex runs itself)', async () => {
    const own = newSession();
    writeFileSync(own.transcript, `${own.lines.join('\n')}\n`);
    const run = await hook(own, 'Stop', { MEMEX_HOOKS: 'off' });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await storedEvents(own)).toEqual({ total: 0, distinct: 0 });
    expect(spooled(own)).toEqual([]);
  });

  it('exits 0 with one line on stderr for input it cannot use', async () => {
    const s = newSession();
    const garbage = await runCli(['hook', 'PostToolUse'], env(s), 'not json');
    expect(garbage).toMatchObject({ code: 0, stdout: '' });
    expect(garbage.stderr.trim().split('\n')).toEqual(['memex hook PostToolUse: stdin is not JSON; nothing recorded']);
    const unknown = await runCli(['hook', 'Bogus'], env(s), payload(s, 'Stop'));
    expect(unknown.code).toBe(0);
    expect(unknown.stderr).toMatch(/^memex hook: unknown event "Bogus"/);
  });
});

describe('SessionStart keeps the brain it printed', () => {
  let recorder: HttpRecorder;
  let hung: Server;
  let hungUrl: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    recorder = await new HttpRecorder(ctx.server.url).start();
    // Accepts connections and never answers.
    hung = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    hungUrl = `http://127.0.0.1:${(hung.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await recorder.stop();
    sockets.forEach((s) => s.destroy());
    await new Promise((resolve) => hung.close(resolve));
  });

  /** A new session of its own (no transcript yet) sharing `stateDir`, as the sessions of one machine do. */
  const start = (stateDir: string, overrides: Record<string, string> = {}) =>
    hook({ ...newSession(), stateDir }, 'SessionStart', { MEMEX_URL: recorder.url, ...overrides });
  const cacheFiles = (stateDir: string) => readdirSync(join(stateDir, 'brain')).map((n) => join(stateDir, 'brain', n));

  it('asks with the ETag of the brain it printed last, and prints that brain again on a 304', async () => {
    const stateDir = newSession().stateDir;
    const first = await start(stateDir);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(context(first).additionalContext).toContain('# Project brain');
    const [sent] = recorder.brainRequests().slice(-1);
    expect(sent).toMatchObject({ status: 200 });
    expect(sent!.headers['if-none-match']).toBeUndefined();
    expect(sent!.answer.etag).toMatch(/^"[^"]+"$/);

    const second = await start(stateDir);
    expect(second).toMatchObject({ code: 0, stderr: '' });
    const [asked] = recorder.brainRequests().slice(-1);
    expect(asked!.headers['if-none-match']).toBe(sent!.answer.etag);
    expect(asked!.status).toBe(304);
    expect(second.stdout).toBe(first.stdout);
    // The key names the cache file by its digest, as it names the spool: the key itself is not on disk.
    const [file] = cacheFiles(stateDir);
    expect(basename(file!)).toMatch(/^[0-9a-f]{16}\.json$/);
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    expect(readFileSync(file!, 'utf8')).not.toContain(ctx.project.apiKey);

    // A changed brain is a new ETag: the new one is printed, and kept.
    const title = `Cart totals are rounded half-even ${process.pid}`;
    const made = await request(`${ctx.server.url}/api/v2/memory-items`, {
      key: ctx.project.apiKey,
      body: { type: 'Convention', title, facts: 'Cart totals round half-even.' },
    });
    expect(made.status).toBe(201);
    const third = await start(stateDir);
    expect(recorder.brainRequests().slice(-1)[0]).toMatchObject({ status: 200 });
    expect(context(third).additionalContext).toContain(title);
    const fourth = await start(stateDir);
    expect(recorder.brainRequests().slice(-1)[0]).toMatchObject({ status: 304 });
    expect(fourth.stdout).toBe(third.stdout);
  });

  it('prints the cached brain, said to be stale, when the server never answers, and returns within its budget', async () => {
    const stateDir = newSession().stateDir;
    const fresh = await start(stateDir);
    const brain = context(fresh).additionalContext.split('\n\n').slice(1).join('\n\n');
    expect(brain).toContain('# Project brain');

    const run = await start(stateDir, { MEMEX_URL: hungUrl, MEMEX_HOOK_BUDGET_MS: '600' });
    expect(run.code).toBe(0);
    expect(context(run).additionalContext).toContain(brain);
    expect(context(run).additionalContext).toMatch(
      /Memex is not answering right now .*: this is the brain as it was on/,
    );
    expect(run.stderr).toMatch(/did not answer in time; printed the brain cached on /);
    // Its budget is 600 ms; without giving up, it would wait for the hung server until the test timed out.
    expect(run.ms).toBeLessThan(5000);
  });

  it('ignores a cache file that is not a brain, and writes a good one over it', async () => {
    const stateDir = newSession().stateDir;
    await start(stateDir);
    const [file] = cacheFiles(stateDir);
    writeFileSync(file!, '{"etag":"\\"abc-md\\"","document":');

    const down = await start(stateDir, { MEMEX_URL: hungUrl, MEMEX_HOOK_BUDGET_MS: '400' });
    expect(down).toMatchObject({ code: 0, stdout: '' });

    const up = await start(stateDir);
    expect(up.code).toBe(0);
    expect(context(up).additionalContext).toContain('# Project brain');
    const [asked] = recorder.brainRequests().slice(-1);
    expect(asked!.headers['if-none-match']).toBeUndefined();
    expect(asked!.status).toBe(200);
    expect(JSON.parse(readFileSync(file!, 'utf8'))).toMatchObject({ etag: asked!.answer.etag });
  });
});

describe('MEMEX_HOOK_REFLECT: the session records what it learned before it stops', () => {
  const reflect = { MEMEX_HOOK_REFLECT: '1' };
  /** The session's first prompt and answer, before any tool ran. */
  const CHAT = (s: Session) =>
    s.lines.slice(
      0,
      s.lines.findIndex((l) => l.includes('"type":"tool_use"')),
    );

  it('asks once, at the first Stop after an edit, and never while a Stop hook already continues the session', async () => {
    const s = newSession();
    writeFileSync(s.transcript, `${CHAT(s).join('\n')}\n`);
    // Talk alone is no reason to stop the assistant.
    expect(await hook(s, 'Stop', reflect)).toMatchObject({ code: 0, stdout: '' });

    // The fixture goes on to edit src/cart/discount.ts.
    writeFileSync(s.transcript, `${s.lines.join('\n')}\n`);
    const again = await hook(s, 'Stop', reflect, { stop_hook_active: true });
    expect(again).toMatchObject({ code: 0, stdout: '' });
    const asked = await hook(s, 'Stop', reflect);
    expect(asked.code).toBe(0);
    const output = JSON.parse(asked.stdout) as { decision: string; reason: string };
    expect(output.decision).toBe('block');
    expect(output.reason).toMatch(/^Before you stop: record with memex_remember/);
    // The session was still captured and completed as at every Stop.
    expect(await completedAt(s)).toBeInstanceOf(Date);

    expect(await hook(s, 'Stop', reflect)).toMatchObject({ code: 0, stdout: '' });
  });

  it('never asks without MEMEX_HOOK_REFLECT=1', async () => {
    const s = newSession();
    writeFileSync(s.transcript, `${s.lines.join('\n')}\n`);
    expect(await hook(s, 'Stop')).toMatchObject({ code: 0, stdout: '' });
  });
});

describe('memex mcp: a memory is checked against what the session just said', () => {
  it("sends the project's current session before remembering, so the assistant's newest words count", async () => {
    const s = newSession();
    const project = join(s.stateDir, '..', 'project');
    mkdirSync(project, { recursive: true });
    writeFileSync(s.transcript, `${s.lines.join('\n')}\n`);
    const overrides = { CLAUDE_PROJECT_DIR: project };
    expect((await hook(s, 'SessionStart', overrides)).code).toBe(0);

    // The assistant writes a sentence, then calls memex_remember before any hook runs again.
    const said = 'Legacy discount codes fall back to their flat amount because they carry no rule object.';
    const line = JSON.parse(s.lines.find((l) => l.includes('"type":"assistant"') && l.includes('"text"'))!) as Record<
      string,
      unknown
    >;
    appendFileSync(
      s.transcript,
      `${JSON.stringify({
        ...line,
        uuid: `${s.sessionId.slice(0, 8)}-0000-4000-8000-${String(process.pid).padStart(12, '0')}`,
        message: { role: 'assistant', content: [{ type: 'text', text: said }] },
      })}\n`,
    );
    const client = new Client({ name: 'memex-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MEMEX_BIN, 'mcp'],
        cwd: project,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env(s, overrides) },
        stderr: 'pipe',
      }),
    );
    try {
      const remembered = await client.callTool({
        name: 'memex_remember',
        arguments: {
          type: 'BugFix',
          title: 'Legacy discount codes have no rule: they use their flat amount',
          facts: 'applyDiscount falls back to the flat amount for codes without a rule.',
          quotes: ['fall back to their flat amount because they carry no rule object'],
        },
      });
      expect(remembered.isError).toBeFalsy();
      const itemId = (remembered.structuredContent as { itemId: string }).itemId;
      const item = await ctx.database.db
        .selectFrom('memory_items')
        .innerJoin('sessions', 'sessions.id', 'memory_items.session_id')
        .select(['sessions.external_id', 'memory_items.evidence_spans', 'memory_items.confidence'])
        .where('memory_items.id', '=', itemId)
        .executeTakeFirstOrThrow();
      expect(item).toMatchObject({ external_id: s.sessionId, confidence: 0.9 });
      expect(item.evidence_spans[0]!.quote).toBe('fall back to their flat amount because they carry no rule object');
    } finally {
      await client.close();
    }
  });
});

describe('memex hook, with Memex down', () => {
  let hung: Server;
  let hungPort: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // Accepts connections and never answers: the worst case for a hook's time.
    hung = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    hungPort = (hung.address() as { port: number }).port;
  });
  afterAll(async () => {
    sockets.forEach((s) => s.destroy());
    await new Promise((resolve) => hung.close(resolve));
  });

  it('spools, says so in one line, and a later hook delivers everything once', async () => {
    const session = newSession();
    writeFileSync(session.transcript, `${session.lines.slice(0, 10).join('\n')}\n`);
    const down = { MEMEX_URL: `http://127.0.0.1:${await freePort()}` };

    const first = await hook(session, 'PostToolUse', down);
    expect(first).toMatchObject({ code: 0, stdout: '' });
    expect(first.stderr.trim().split('\n')).toHaveLength(1);
    expect(first.stderr).toMatch(/Memex is not reachable at .*; \d+ request\(s\) kept in .*spool/);

    appendFileSync(session.transcript, `${session.lines.slice(10).join('\n')}\n`);
    const stop = await hook(session, 'Stop', down);
    expect(stop.code).toBe(0);
    const start = await hook(session, 'SessionStart', down);
    expect(start).toMatchObject({ code: 0, stdout: '' });
    expect(spooled(session).length).toBeGreaterThanOrEqual(2);
    expect(await storedEvents(session)).toEqual({ total: 0, distinct: 0 });
    // SessionStart handed its work to a process of its own, which tried the server that was down.
    // Until it exits, a prompt leaves the session to it; a loaded machine can take a second to
    // start it, so the prompt below waits for it as a person's next prompt would follow it.
    await waitFor(() => backgroundDone(session));

    const back = await hook(session, 'UserPromptSubmit', { MEMEX_HOOK_CONTEXT_TOKENS: '0' });
    expect(back).toMatchObject({ code: 0, stderr: '' });
    expect(spooled(session)).toEqual([]);
    expect(await storedEvents(session)).toEqual({ total: ALL_EVENTS, distinct: ALL_EVENTS });
    expect(await completedAt(session)).toBeInstanceOf(Date);
  });

  it('redacts secrets before they reach the spool or the cursor, and stores them redacted', async () => {
    const session = newSession();
    const token = `ghp_${randomOf('abcdefghijklmnopqrstuvwxyzABCDEFGH0123456789', 36)}`;
    const password = `Pw-${randomOf('abcdefghijklmnopqrstuvwxyz0123456789', 12)}`;
    const lines = session.lines.map((line) =>
      line
        .replace(
          'Can you fix the discount calculation',
          `The db is postgres://shop:${password}@db/shop. Can you fix the discount calculation`,
        )
        .replace('"command":"npm test -- cart"', `"command":"GH_TOKEN=${token} npm test -- cart"`),
    );
    writeFileSync(session.transcript, `${lines.slice(0, 10).join('\n')}\n`);
    const down = { MEMEX_URL: `http://127.0.0.1:${await freePort()}` };
    expect((await hook(session, 'PostToolUse', down)).code).toBe(0);

    const onDisk = (dir: string): string =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
        .join('\n');
    const state = onDisk(session.stateDir);
    expect(spooled(session).length).toBeGreaterThan(0);
    expect(state).toContain('GH_TOKEN=[REDACTED:github-token] npm test -- cart');
    expect(state).toContain('postgres://shop:[REDACTED:password]@db/shop');
    expect(state).not.toContain(token);
    expect(state).not.toContain(password);

    expect((await hook(session, 'PostToolUse')).code).toBe(0);
    const stored = await sql<{ content: string }>`
      select e.content from raw_events e join sessions s on s.id = e.session_id
      where s.project_id = ${ctx.project.projectId} and s.external_id = ${session.sessionId}`.execute(ctx.database.db);
    const contents = stored.rows.map((r) => r.content).join('\n');
    expect(contents).toContain('[REDACTED:password]');
    expect(contents).not.toContain(password);
  });

  it('spools when no key is configured yet, and delivers once one is', async () => {
    const session = newSession();
    writeFileSync(session.transcript, `${session.lines.join('\n')}\n`);
    const noKey = await hook(session, 'PostToolUse', { MEMEX_API_KEY: '' });
    expect(noKey.code).toBe(0);
    expect(noKey.stderr).toMatch(/no Memex API key/);
    expect(spooled(session).length).toBeGreaterThan(0);
    await hook(session, 'PostToolUse');
    expect(await storedEvents(session)).toEqual({ total: ALL_EVENTS, distinct: ALL_EVENTS });
  });

  it("never sends one key's spooled events with another key", async () => {
    const session = newSession();
    writeFileSync(session.transcript, `${session.lines.join('\n')}\n`);
    // A key of no project: 401, kept for when the key is fixed.
    const wrongKey = { MEMEX_API_KEY: `mx_${'x'.repeat(43)}` };
    const refused = await hook(session, 'PostToolUse', wrongKey);
    expect(refused.stderr).toMatch(/invalid or revoked API key; \d+ request\(s\) kept/);
    const kept = spooled(session);
    expect(kept.length).toBeGreaterThan(0);

    const other = newSession();
    writeFileSync(other.transcript, `${other.lines.join('\n')}\n`);
    const run = await hook({ ...other, stateDir: session.stateDir }, 'PostToolUse');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(await storedEvents(other)).toEqual({ total: ALL_EVENTS, distinct: ALL_EVENTS });
    expect(await storedEvents(session)).toEqual({ total: 0, distinct: 0 });
    expect(spooled(session)).toEqual(kept);
  });

  it('gives up on a server that never answers at the budget, keeping the events', async () => {
    const session = newSession();
    writeFileSync(session.transcript, `${session.lines.join('\n')}\n`);
    const run = await hook(session, 'PostToolUse', { MEMEX_URL: `http://127.0.0.1:${hungPort}` });
    expect(run).toMatchObject({ code: 0, stdout: '' });
    // Bounded by the 2 s budget (plus process start); without the deadline it would hang to the test timeout.
    expect(run.ms).toBeLessThan(2500);
    expect(spooled(session).length).toBeGreaterThan(0);
    await hook(session, 'PostToolUse');
    expect(await storedEvents(session)).toEqual({ total: ALL_EVENTS, distinct: ALL_EVENTS });
  });
});

describe('memex init', () => {
  it('makes the repository a project of its own, keeps machine paths and the key out of committed files, and is idempotent', async () => {
    const project = mkdtempSync(join(tmpdir(), 'memex-init-'));
    const settingsPath = join(project, '.claude', 'settings.json');
    const localPath = join(project, '.claude', 'settings.local.json');
    // What an older init left in the committed settings: its hooks, beside the user's own.
    const existing = mergeClaudeSettings(
      {
        model: 'opus',
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] },
        enabledMcpjsonServers: ['github'],
      },
      '/old/checkout/bin/memex',
    ).value;
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } }));
    mkdirSync(join(project, '.claude'), { recursive: true });
    writeFileSync(settingsPath, JSON.stringify(existing));
    const cliEnv = {
      MEMEX_LOCAL_STATE_DIR: join(project, 'none'),
      MEMEX_URL: ctx.server.url,
      MEMEX_ADMIN_TOKEN: ADMIN_TOKEN,
    };

    const dry = await runCli(['init', '--dir', project], cliEnv);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('hook SessionStart');
    expect(JSON.parse(readFileSync(settingsPath, 'utf8'))).toEqual(existing);
    expect(existsSync(localPath)).toBe(false);

    const write = await runCli(['init', '--write', '--dir', project], cliEnv);
    expect(write.code).toBe(0);
    expect(write.stdout).toContain(`Made project ${basename(project)}`);
    expect(write.stdout).toContain('An older `memex init` had put the hooks');
    // The committed files name nothing of this machine, and hold no key.
    const committed = readFileSync(settingsPath, 'utf8') + readFileSync(join(project, '.mcp.json'), 'utf8');
    expect(committed).not.toContain('bin/memex');
    expect(committed).not.toContain('mx_');
    expect(JSON.parse(readFileSync(settingsPath, 'utf8'))).toEqual({
      model: 'opus',
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] },
      enabledMcpjsonServers: ['github', 'memex'],
    });
    const mcp = JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8')) as {
      mcpServers: Record<string, { command: string; args?: string[] }>;
    };
    expect(mcp.mcpServers.github).toEqual({ command: 'gh-mcp' });
    expect(mcp.mcpServers.memex).toMatchObject({ type: 'stdio', command: '${MEMEX_BIN:-memex}', args: ['mcp'] });

    const local = JSON.parse(readFileSync(localPath, 'utf8')) as {
      hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>>;
      enabledMcpjsonServers: string[];
      env: { MEMEX_BIN: string; MEMEX_URL: string; MEMEX_API_KEY: string };
    };
    expect(statSync(localPath).mode & 0o777).toBe(0o600);
    expect(local.enabledMcpjsonServers).toEqual(['memex']);
    expect(Object.keys(local.hooks).sort()).toEqual(
      ['PostToolUse', 'PreCompact', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit'].sort(),
    );
    expect(local.hooks.Stop!.flatMap((g) => g.hooks.map((h) => h.command))).toEqual([
      expect.stringMatching(/bin\/memex hook Stop$/),
    ]);
    expect(local.env).toEqual({
      MEMEX_BIN: expect.stringMatching(/bin\/memex$/),
      MEMEX_URL: ctx.server.url,
      MEMEX_API_KEY: expect.stringMatching(/^mx_/),
    });
    // The key opens the repository's own project, named after it, and not the file's test project.
    const summary = await request<{ projectName?: string }>(`${ctx.server.url}/api/v2/brain`, {
      key: local.env.MEMEX_API_KEY,
    });
    expect(summary.status).toBe(200);
    expect(JSON.stringify(summary.body)).toContain(`Project brain: ${basename(project)}`);

    const before = readFileSync(localPath, 'utf8');
    const again = await runCli(['init', '--write', '--dir', project], cliEnv);
    expect(again.stdout).toContain('keeps its own project');
    expect(again.stdout).toContain('is up to date');
    expect(readFileSync(localPath, 'utf8')).toBe(before);
  });

  it('leaves the hooks on the local project when no admin token can make one', async () => {
    const project = mkdtempSync(join(tmpdir(), 'memex-init-'));
    const run = await runCli(['init', '--write', '--dir', project], {
      MEMEX_LOCAL_STATE_DIR: join(project, 'none'),
      MEMEX_URL: ctx.server.url,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No admin token, so no project of its own');
    const local = JSON.parse(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8')) as { env: object };
    expect(local.env).not.toHaveProperty('MEMEX_API_KEY');
  });

  it('refuses to touch a settings file that is not JSON', async () => {
    const project = mkdtempSync(join(tmpdir(), 'memex-init-'));
    mkdirSync(join(project, '.claude'), { recursive: true });
    writeFileSync(join(project, '.claude', 'settings.json'), '{ "hooks": ');
    const run = await runCli(['init', '--write', '--dir', project], { MEMEX_LOCAL_STATE_DIR: join(project, 'none') });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/settings\.json is not valid JSON; fix it first, nothing was written/);
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toBe('{ "hooks": ');
    expect(existsSync(join(project, '.mcp.json'))).toBe(false);
  });
});
