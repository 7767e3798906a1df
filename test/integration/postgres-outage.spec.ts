import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ProjectRepository } from '@memex/db';
import { request, type ErrorBody } from '../support/http';
import { runAllInOne, type RunningProcess } from '../support/processes';
import { TEST_REDIS_URL, purgeQueuePrefix } from '../support/test-app';
import { SERVER_URL, createTestDatabase, uniqueName, type TestDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { describeServerOnly } from '../support/mode';

/**
 * The all-in-one process (ingest, enrichment and hygiene workers, brain) under load while
 * every backend of its database is terminated again and again, as a PostgreSQL restart, a
 * failover or a managed database's idle timeout does. Run alone to read its figures:
 * `npx jest test/integration/postgres-outage.spec.ts`.
 */
const KILLING_MS = 8_000;
const CLIENTS = 6;

let database: TestDatabase;
let run: RunningProcess;
let base: string;
let apiKey: string;
const prefix = uniqueName('memex_test');
const stateDir = mkdtempSync(join(tmpdir(), 'memex-outage-'));

beforeAll(async () => {
  database = await createTestDatabase();
  ({ apiKey } = await new ProjectRepository(database.db).createWithKey('outage'));
  ({ run, url: base } = await runAllInOne({
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    DB_POOL_SIZE: '6',
    ENRICHMENT_DEBOUNCE_MS: '200',
    // A job that ran out of attempts while its connections were killed is made good by the
    // reconciler, as in production; here it looks every second instead of every 30.
    RECONCILE_INTERVAL_MS: '1000',
    RECONCILE_GRACE_MS: '500',
    MEMEX_LOCAL_STATE_DIR: stateDir,
  }));
}, 40_000);

afterAll(async () => {
  run?.child.kill('SIGKILL');
  await database?.drop();
  await purgeQueuePrefix(prefix);
  rmSync(stateDir, { recursive: true, force: true });
});

/** Every backend of the database but the caller's own, terminated at once. */
async function terminateBackends(admin: Client, name: string): Promise<number> {
  const { rowCount } = await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [name],
  );
  return rowCount ?? 0;
}

interface Tally {
  requests: number;
  byStatus: Record<number, number>;
  /** Answers that are neither a success, a redirect nor a proper 503, with their bodies. */
  wrong: string[];
  /** Proper 503s by route, printed: which work a loss reached despite the retries. */
  unavailable: Record<string, number>;
  eventsSent: Set<string>;
}

/** One client: a mix of reads and event batches; a batch answered 503 is sent again, as the hooks do. */
async function client(id: number, tally: Tally, until: () => boolean): Promise<void> {
  for (let n = 0; !until(); n += 1) {
    const kind = n % 5;
    if (kind === 0) {
      const eventId = `outage-${id}-${n}`;
      const body = {
        sessionId: `outage-${id}`,
        events: [
          { eventId, type: 'prompt', timestamp: new Date().toISOString(), content: `We decided to use plan ${n}` },
        ],
      };
      for (;;) {
        const res = await observe(tally, '/api/v2/events', { key: apiKey, body });
        if (res !== 503) break;
      }
      tally.eventsSent.add(eventId);
    } else if (kind === 1) {
      // Off the cached grid, so every brain is assembled from the items.
      await observe(tally, `/api/v2/brain?tokenBudget=${2001 + n}`, { key: apiKey });
    } else if (kind === 2) {
      await observe(tally, '/api/v2/search?q=plan', { key: apiKey });
    } else if (kind === 3) {
      await observe(tally, '/api/v2/memory-items?limit=20', { key: apiKey });
    } else {
      await observe(tally, '/api/v2/context-pack', { key: apiKey, body: { query: 'which plan', maxTokens: 500 } });
    }
  }
}

async function observe(tally: Tally, path: string, init: { key: string; body?: unknown }): Promise<number> {
  tally.requests += 1;
  let status: number;
  try {
    const res = await request<ErrorBody>(`${base}${path}`, init);
    status = res.status;
    const proper503 =
      status === 503 && res.body.error?.code === 'DATABASE_UNAVAILABLE' && res.headers.get('retry-after') !== null;
    if (status >= 400 && !proper503) tally.wrong.push(`${path} ${status} ${JSON.stringify(res.body)}`);
    if (proper503) tally.unavailable[path.split('?')[0]!] = (tally.unavailable[path.split('?')[0]!] ?? 0) + 1;
  } catch (error) {
    // No answer at all: the process went away or dropped the connection.
    status = 0;
    tally.wrong.push(`${path} no answer: ${(error as Error).message}`);
  }
  tally.byStatus[status] = (tally.byStatus[status] ?? 0) + 1;
  return status;
}

describeServerOnly('PostgreSQL connections terminated under load', 'terminates backends of a database server', () => {
  it('keeps the process up, answers only 2xx or 503 with Retry-After, and loses no event', async () => {
    const name = new URL(database.url).pathname.slice(1);
    const admin = new Client({ connectionString: SERVER_URL });
    await admin.connect();
    const tally: Tally = { requests: 0, byStatus: {}, wrong: [], unavailable: {}, eventsSent: new Set() };
    let killed = 0;
    let rounds = 0;
    const end = Date.now() + KILLING_MS;
    try {
      const clients = Array.from({ length: CLIENTS }, (_, i) => client(i, tally, () => Date.now() > end));
      while (Date.now() < end) {
        await new Promise((r) => setTimeout(r, 500 + Math.random() * 1000));
        killed += await terminateBackends(admin, name);
        rounds += 1;
      }
      await Promise.all(clients);
    } finally {
      await admin.end();
    }

    const count = (test: (status: number) => boolean) =>
      Object.entries(tally.byStatus).reduce((sum, [status, n]) => sum + (test(Number(status)) ? n : 0), 0);
    console.info(
      `postgres outage: ${killed} backends terminated in ${rounds} rounds over ${KILLING_MS / 1000} s; ` +
        `${tally.requests} requests: ${count((s) => s >= 200 && s < 400)} 2xx/3xx, ${count((s) => s === 503)} 503, ` +
        `${count((s) => s >= 500 && s !== 503)} other 5xx, ${count((s) => s === 0)} unanswered; ` +
        `${tally.eventsSent.size} events sent; process restarts: ${run.child.exitCode === null ? 0 : 1}; ` +
        `503 by route: ${JSON.stringify(tally.unavailable)}`,
    );

    expect(run.child.exitCode).toBeNull();
    expect(run.child.signalCode).toBeNull();
    expect(run.stderr()).not.toMatch(/Unhandled|uncaught/i);
    expect(rounds).toBeGreaterThanOrEqual(5);
    // Every round found the process's connections to terminate.
    expect(killed).toBeGreaterThanOrEqual(rounds);
    expect(tally.wrong).toEqual([]);
    expect(tally.requests).toBeGreaterThan(100);

    // Once the killing stops, everything answers at the first try.
    expect((await request(`${base}/health/ready`)).status).toBe(200);
    const after = await request(`${base}/api/v2/events`, {
      key: apiKey,
      body: {
        sessionId: 'outage-after',
        events: [{ eventId: 'outage-after-1', type: 'prompt', timestamp: new Date().toISOString(), content: 'after' }],
      },
    });
    expect(after).toMatchObject({ status: 202, body: { accepted: 1, duplicates: 0 } });
    tally.eventsSent.add('outage-after-1');
    for (const path of ['/api/v2/brain', '/api/v2/search?q=plan', '/api/v2/memory-items']) {
      expect((await request(`${base}${path}`, { key: apiKey })).status).toBe(200);
    }

    // Every event sent is stored, once.
    const check = new Client({ connectionString: database.url });
    await check.connect();
    try {
      const { rows } = await check.query<{ event_id: string; copies: number }>(
        'select event_id, count(*)::int as copies from raw_events group by event_id',
      );
      expect(rows.filter((r) => r.copies !== 1)).toEqual([]);
      expect(new Set(rows.map((r) => r.event_id))).toEqual(tally.eventsSent);

      // The worker, whose jobs failed under it and were retried, catches up with every session.
      await waitFor(async () => {
        const lagging = await check.query('select 1 from sessions where enrichment_cursor < last_event_seq');
        return lagging.rowCount === 0;
      }, 30_000);
    } finally {
      await check.end();
    }
    expect(run.child.exitCode).toBeNull();
  }, 60_000);
});
