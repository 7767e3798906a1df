import { Client } from 'pg';
import { ProjectRepository } from '@memex/db';
import { event, request } from '../support/http';
import { freePort, runEntry, waitForHttp } from '../support/processes';
import { TEST_REDIS_URL, purgeQueuePrefix } from '../support/test-app';
import { createTestDatabase, uniqueName, type TestDatabase } from '../support/test-database';
import { describeServerOnly, itServerOnly } from '../support/mode';

const INGEST = 'apps/ingest-api/src/main.js';

/** Runs ingest-api on `env`, expecting it to exit 1 with one line on stderr: that line, and all of stderr. */
async function stopsWithOneLine(env: Record<string, string>): Promise<{ line: string; stderr: string }> {
  const run = runEntry(INGEST, env);
  expect(await run.exited).toEqual({ code: 1, signal: null });
  const lines = run.stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  return { line: lines[0]!, stderr: run.stderr() };
}

describe('start-up', () => {
  it('stops with one line naming an unreachable PostgreSQL and how to start it, password hidden', async () => {
    const { line, stderr } = await stopsWithOneLine({
      DATABASE_URL: 'postgres://memex:s3cret@127.0.0.1:1/memex',
      REDIS_URL: TEST_REDIS_URL,
    });
    expect(line).toContain('cannot reach PostgreSQL at postgres://memex:***@127.0.0.1:1/memex');
    expect(line).toContain('start it with');
    expect(stderr).not.toContain('s3cret');
  });

  itServerOnly(
    'stops with one line naming an unreachable Redis and how to start it',
    'reaches PostgreSQL first',
    async () => {
      const { line } = await stopsWithOneLine({ REDIS_URL: 'redis://127.0.0.1:1' });
      expect(line).toContain('cannot reach Redis at redis://127.0.0.1:1');
      expect(line).toContain('redis-server');
    },
  );

  itServerOnly(
    'says a refused login is a login problem, not a server to start',
    'needs a PostgreSQL server to refuse the login',
    async () => {
      const { line } = await stopsWithOneLine({
        DATABASE_URL: 'postgres://no_such_role_memex@127.0.0.1:5432/memex',
        REDIS_URL: TEST_REDIS_URL,
      });
      expect(line).toMatch(/refused the login \(28000\): check the user and password in DATABASE_URL/);
    },
  );

  it('reports every configuration problem together', async () => {
    const run = runEntry(INGEST, { PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' });
    expect((await run.exited).code).toBe(1);
    for (const name of ['PORT', 'LOG_LEVEL', 'DATABASE_URL']) expect(run.stderr()).toContain(name);
  });
});

describeServerOnly(
  'SIGTERM',
  'runs a service process on a database server; embedded-process.spec stops the embedded one',
  () => {
    let database: TestDatabase;
    const prefix = uniqueName('memex_test');
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database.drop();
      await purgeQueuePrefix(prefix);
    });

    /** The ingest-api process on the file's database, with a project of its own. */
    async function startIngest(env: Record<string, string> = {}) {
      const { apiKey } = await new ProjectRepository(database.db).createWithKey('lifecycle');
      const port = await freePort();
      const run = runEntry(INGEST, {
        DATABASE_URL: database.url,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: prefix,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ...env,
      });
      return { apiKey, run, url: `http://127.0.0.1:${port}` };
    }

    it('drains an in-flight request, then closes the pools and exits', async () => {
      const { apiKey, run, url } = await startIngest();
      try {
        await waitForHttp(`${url}/health/live`);
        expect(
          (await request(`${url}/api/v2/events`, { key: apiKey, body: { sessionId: 'slow', events: [event()] } }))
            .status,
        ).toBe(202);

        // Hold the session row so the next batch blocks inside its transaction.
        const blocker = new Client({ connectionString: database.url });
        await blocker.connect();
        await blocker.query('begin');
        await blocker.query(`select id from sessions where external_id = 'slow' for update`);

        const inFlight = request(`${url}/api/v2/events`, {
          key: apiKey,
          body: { sessionId: 'slow', events: [event(), event()] },
        });
        await new Promise((r) => setTimeout(r, 300));
        run.child.kill('SIGTERM');
        await new Promise((r) => setTimeout(r, 300));
        expect(run.child.exitCode).toBeNull();

        await blocker.query('commit');
        await blocker.end();

        const res = await inFlight;
        expect(res).toMatchObject({ status: 202, body: { accepted: 2, duplicates: 0 } });
        const exit = await run.exited;
        expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
        const rows = await database.db.selectFrom('raw_events').select('event_id').execute();
        expect(rows).toHaveLength(3);
      } finally {
        run.child.kill('SIGKILL');
      }
    });

    it('exits once SHUTDOWN_TIMEOUT_MS has passed, even while a request is stuck', async () => {
      const { apiKey, run, url } = await startIngest({ SHUTDOWN_TIMEOUT_MS: '1500' });
      const blocker = new Client({ connectionString: database.url });
      try {
        await waitForHttp(`${url}/health/live`);
        await request(`${url}/api/v2/events`, { key: apiKey, body: { sessionId: 'stuck', events: [event()] } });
        await blocker.connect();
        await blocker.query('begin');
        await blocker.query(`select id from sessions where external_id = 'stuck' for update`);
        const stuck = request(`${url}/api/v2/events`, {
          key: apiKey,
          body: { sessionId: 'stuck', events: [event()] },
        }).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 300));
        run.child.kill('SIGTERM');
        expect(await run.exited).toEqual({ code: 1, signal: null });
        expect(run.stderr()).toContain('still draining 1500 ms after SIGTERM; exiting now');
        await stuck;
      } finally {
        await blocker.query('rollback').catch(() => undefined);
        await blocker.end().catch(() => undefined);
        run.child.kill('SIGKILL');
      }
    });
  },
);
