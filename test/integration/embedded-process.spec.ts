import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawEvent } from '../support/events';
import { request } from '../support/http';
import { freePort, runCli, runEntry, waitForHttp, type RunningProcess } from '../support/processes';
import { ScriptedLlm, outboxAnswer, outboxEvents } from '../support/scripted-llm';
import { waitFor } from '../support/wait';

/**
 * `npm start` with nothing but Node: the all-in-one process in embedded mode (no DATABASE_URL,
 * no REDIS_URL), on a home of its own. It needs neither PostgreSQL nor Redis, so it runs
 * the same in both test modes.
 */
const llm = new ScriptedLlm();
const home = mkdtempSync(join(tmpdir(), 'memex-embedded-'));
const running: RunningProcess[] = [];

beforeAll(() => llm.start());
afterAll(async () => {
  for (const run of running) run.child.kill('SIGKILL');
  await Promise.all(running.map((r) => r.exited));
  await llm.stop();
  rmSync(home, { recursive: true, force: true });
});

async function start(port: number): Promise<RunningProcess> {
  const run = runEntry('apps/memex/src/main.js', {
    MEMEX_HOME: home,
    HOME: home,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    LLM_BASE_URL: llm.url,
    LLM_TIMEOUT_MS: '60000',
    ENRICHMENT_DEBOUNCE_MS: '0',
    RECONCILE_INTERVAL_MS: '1000',
    // Long enough that the job the batch queued is the one that meets the model first.
    RECONCILE_GRACE_MS: '3000',
  });
  running.push(run);
  await waitForHttp(`http://127.0.0.1:${port}/health/ready`, 60_000);
  // The banner follows the first answer: the local project is made once the server listens.
  await waitFor(() => run.stdout().includes('Memex is running'), 10_000);
  return run;
}

const apiKey = () => (JSON.parse(readFileSync(join(home, 'local-project.json'), 'utf8')) as { apiKey: string }).apiKey;

describe('the all-in-one process with nothing but Node', () => {
  const events = outboxEvents();
  let port: number;
  let first: RunningProcess;

  it('starts embedded, saying so and where its data is, and takes events', async () => {
    port = await freePort();
    first = await start(port);
    expect(first.stdout()).toContain(`embedded (PGlite and queues in this process), data in ${home}`);
    expect(first.stdout()).toContain(`admin token:      kept in ${join(home, 'local-admin.json')}`);
    llm.enqueue({ hang: true });
    const res = await request(`http://127.0.0.1:${port}/api/v2/events`, {
      key: apiKey(),
      body: { sessionId: 'crash', events },
    });
    expect(res).toMatchObject({ status: 202, body: { accepted: 2, duplicates: 0 } });
  }, 90_000);

  it('refuses a second process on the same home, naming the one that holds it', async () => {
    const second = runEntry('apps/memex/src/main.js', { MEMEX_HOME: home, HOME: home, PORT: String(await freePort()) });
    running.push(second);
    expect((await second.exited).code).toBe(1);
    expect(second.stderr()).toContain(`another Memex (process ${first.child.pid}) is running on ${home}`);
  }, 60_000);

  it('killed with -9 while the model works, loses nothing and does nothing twice once started again', async () => {
    // The process is inside enrichment, waiting on the model, when it dies.
    await waitFor(() => llm.requests.length === 1, 20_000);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    llm.enqueue({ content: outboxAnswer(events) });
    // The same home, a stale pid file: the restart takes it over and the reconciler finds the session.
    await start(port);
    const items = async () =>
      (
        await request<{ items: Array<{ dedupHint: string }> }>(`http://127.0.0.1:${port}/api/v2/memory-items`, {
          key: apiKey(),
        })
      ).body.items;
    await waitFor(async () => (await items()).length === 2, 30_000);
    // Resent after the crash, as a hook would: stored once.
    const again = await request(`http://127.0.0.1:${port}/api/v2/events`, {
      key: apiKey(),
      body: { sessionId: 'crash', events },
    });
    expect(again.body).toEqual({ accepted: 0, duplicates: 2 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await items()).map((i) => i.dedupHint).sort()).toEqual([
      'decision:email:outbox-table',
      'todo:email:outbox-backfill',
    ]);
    expect(llm.requests).toHaveLength(2);
    const brain = await request<{ document: string }>(`http://127.0.0.1:${port}/api/v2/brain`, { key: apiKey() });
    expect(brain.body.document).toContain('Send all emails through the outbox table');
  }, 120_000);

  it('makes each repository a project of its own with `memex init`, using the admin token it keeps', async () => {
    const repo = join(home, 'checkouts', 'billing-service');
    mkdirSync(repo, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const init = await runCli(['init', '--write', '--dir', repo], { MEMEX_HOME: home, HOME: home });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('Made project billing-service');
    expect(readFileSync(join(repo, '.gitignore'), 'utf8')).toContain('.claude/settings.local.json');
    const local = JSON.parse(readFileSync(join(repo, '.claude', 'settings.local.json'), 'utf8')) as {
      env: { MEMEX_API_KEY: string; MEMEX_URL: string };
    };
    expect(local.env.MEMEX_URL).toBe(`http://127.0.0.1:${port}`);
    const post = await request(`http://127.0.0.1:${port}/api/v2/events`, {
      key: local.env.MEMEX_API_KEY,
      body: {
        sessionId: 'billing',
        events: [rawEvent('prompt', 'We decided to round invoice totals half-even, as the tax office requires.')],
      },
    });
    expect(post.status).toBe(202);
    const brainOf = async (key: string) =>
      (await request<{ document: string }>(`http://127.0.0.1:${port}/api/v2/brain`, { key })).body.document;
    await waitFor(async () => (await brainOf(local.env.MEMEX_API_KEY)).includes('half-even'), 20_000);
    expect(await brainOf(local.env.MEMEX_API_KEY)).toContain('# Project brain: billing-service');
    // One repository's brain never shows another's items.
    expect(await brainOf(apiKey())).not.toContain('half-even');
    expect(await brainOf(local.env.MEMEX_API_KEY)).not.toContain('outbox');
  }, 60_000);
});
