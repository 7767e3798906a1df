import { appendFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { transcriptToEvents } from '@memex/transcript';
import { insertItem } from '../support/items';
import { HttpRecorder } from '../support/http-recorder';
import { freePort, runCli } from '../support/processes';
import { useTestApp } from '../support/use-test-app';
import { waitFor } from '../support/wait';
import {
  ALL_EVENTS,
  LINES,
  SPLIT,
  backgroundDone,
  context,
  hookHarness,
  newSession,
  payload,
  spooled,
  type Session,
} from '../support/hook-sessions';

const ctx = useTestApp([IngestApiModule, BrainApiModule]);
const { env, hook, storedEvents, completedAt, endedAtItsEnd } = hookHarness(ctx);

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

  describe("a file edited after the shell moved is named from the session's root", () => {
    // Claude Code's cwd follows the shell (`cd packages/codegen`): relative to it, the package's
    // manifest would read as the project's own package.json.
    async function editAfterCd(moved: Session, uuid: string): Promise<string[]> {
      const edit = JSON.parse(moved.lines.find((l) => l.includes('"name":"Edit"'))!) as Record<string, unknown>;
      const path = `${moved.cwd}/packages/codegen/package.json`;
      const content = [{ type: 'tool_use', id: `toolu_${uuid.slice(-4)}`, name: 'Edit', input: { file_path: path } }];
      const line = { ...edit, uuid, cwd: `${moved.cwd}/packages/codegen`, message: { role: 'assistant', content } };
      appendFileSync(moved.transcript, `${JSON.stringify(line)}\n`);
      await hook(moved, 'PostToolUse');
      const row = await sql<{ content: string }>`
        select e.content from raw_events e join sessions s on s.id = e.session_id
        where s.external_id = ${moved.sessionId} and e.event_id = ${`${uuid}:0`}`.execute(ctx.database.db);
      return row.rows.map((r) => r.content);
    }

    function startedSession(): Session {
      const started = newSession();
      writeFileSync(started.transcript, `${started.lines.join('\n')}\n`);
      return started;
    }

    it('in a later hook', async () => {
      const moved = startedSession();
      await hook(moved, 'PostToolUse');
      expect(await editAfterCd(moved, 'e5a6b7c8-0000-4000-8000-0000000000aa')).toEqual([
        'Edit packages/codegen/package.json',
      ]);
    });

    it('when an earlier version saved the cursor without the root: read from the transcript', async () => {
      const upgraded = startedSession();
      await hook(upgraded, 'PostToolUse');
      const cursorFile = join(upgraded.stateDir, 'sessions', readdirSync(join(upgraded.stateDir, 'sessions'))[0]!);
      const { root, ...saved } = JSON.parse(readFileSync(cursorFile, 'utf8')) as Record<string, unknown>;
      expect(root).toBe(upgraded.cwd);
      writeFileSync(cursorFile, JSON.stringify(saved));
      expect(await editAfterCd(upgraded, 'e5a6b7c8-0000-4000-8000-0000000000bb')).toEqual([
        'Edit packages/codegen/package.json',
      ]);
    });
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

  it.each([
    ['Stop', false],
    ['PreCompact', false],
    ['SessionEnd', true],
  ])('%s completes the session (and says it ended: %s)', async (event, ended) => {
    const own = newSession();
    writeFileSync(own.transcript, `${own.lines.slice(0, 6).join('\n')}\n`);
    const run = await hook(own, event);
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await completedAt(own)).toBeInstanceOf(Date);
    // Only SessionEnd closes a last turn left mid-work: a turn's end or a compaction may go on.
    expect(await endedAtItsEnd(own)).toBe(ended);
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
