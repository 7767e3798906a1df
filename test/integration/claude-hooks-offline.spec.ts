import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { sql } from 'kysely';
import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { freePort } from '../support/processes';
import { useTestApp } from '../support/use-test-app';
import { waitFor } from '../support/wait';
import { randomOf } from '../../libs/redaction/src/secret-corpus.fixture';
import { ALL_EVENTS, backgroundDone, hookHarness, newSession, spooled } from '../support/hook-sessions';

const ctx = useTestApp([IngestApiModule, BrainApiModule]);
const { hook, storedEvents, completedAt } = hookHarness(ctx);

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
