import { randomBytes } from 'node:crypto';
import { MIGRATIONS } from '@memex/db';
import { request, type ErrorBody } from '../support/http';
import { freePort, runEntry, waitForHttp, type RunningProcess } from '../support/processes';
import { ADMIN_TOKEN, TEST_REDIS_URL, purgeQueuePrefix } from '../support/test-app';
import { databaseUrl, dropDatabase, uniqueName } from '../support/test-database';
import { waitFor } from '../support/wait';
import { describeServerOnly } from '../support/mode';

/**
 * The production shape: the migration job, then ingest-api, enrichment-worker and brain-api
 * as separate processes on one PostgreSQL and one Redis, each started the way the image
 * starts it. Events posted to ingest become items in brain-api's brain.
 */
const name = uniqueName('memex_test');
const prefix = uniqueName('memex_test');
const url = databaseUrl(name);
const running: RunningProcess[] = [];
const ports: Record<string, number> = {};

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: url,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    MEMEX_ADMIN_TOKEN: ADMIN_TOKEN,
    MIGRATE_ON_START: 'false',
    ENRICHMENT_DEBOUNCE_MS: '200',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

function start(app: string): RunningProcess {
  const child = runEntry(`apps/${app}/src/main.js`, env({ PORT: String(ports[app]) }));
  running.push(child);
  return child;
}

/** Every JSON log line a process wrote to stdout. */
function logLines(run: RunningProcess): Array<Record<string, unknown>> {
  return run
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

afterAll(async () => {
  for (const run of running) run.child.kill('SIGKILL');
  await dropDatabase(name);
  await purgeQueuePrefix(prefix);
});

describeServerOnly(
  'ingest-api, enrichment-worker and brain-api as three processes',
  'split services share PostgreSQL and Redis',
  () => {
    let ingest: RunningProcess;
    let worker: RunningProcess;
    let brain: RunningProcess;
    const secret = `content-${randomBytes(6).toString('hex')}`;

    beforeAll(async () => {
      for (const app of ['ingest-api', 'enrichment-worker', 'brain-api']) ports[app] = await freePort();
    });

    it('refuses to start on a schema the migration job has not prepared', async () => {
      const early = runEntry('apps/brain-api/src/main.js', env({ PORT: String(ports['brain-api']) }));
      expect(await early.exited).toEqual({ code: 1, signal: null });
      expect(early.stderr()).toMatch(/the schema lacks 0001_initial.*run the migration job first \(APP=migrate\)/);
    });

    it('runs the migration job once, which exits 0', async () => {
      const migrate = runEntry('apps/migrate/src/main.js', env());
      expect(await migrate.exited).toEqual({ code: 0, signal: null });
      expect(logLines(migrate)).toEqual([
        expect.objectContaining({ msg: 'migrations applied', count: Object.keys(MIGRATIONS).length }),
      ]);
      const again = runEntry('apps/migrate/src/main.js', env());
      expect(await again.exited).toEqual({ code: 0, signal: null });
      expect(logLines(again)).toEqual([expect.objectContaining({ count: 0 })]);
    });

    it('turns events posted to ingest-api into items in brain-api', async () => {
      ingest = start('ingest-api');
      worker = start('enrichment-worker');
      brain = start('brain-api');
      await Promise.all(
        Object.values(ports).map((port) => waitForHttp(`http://127.0.0.1:${port}/health/ready`, 30_000)),
      );

      // Projects are brain-api's (the ingress sends everything but events and sessions there).
      const created = await request<{ projectId: string; apiKey: string }>(
        `http://127.0.0.1:${ports['brain-api']}/api/v2/projects`,
        { key: ADMIN_TOKEN, body: { name: 'three' } },
      );
      expect(created.status).toBe(201);
      const key = created.body.apiKey;
      const gone = await request<ErrorBody>(`http://127.0.0.1:${ports['ingest-api']}/api/v2/projects`, {
        key: ADMIN_TOKEN,
        body: { name: 'x' },
      });
      expect(gone.status).toBe(404);

      const posted = await request(`http://127.0.0.1:${ports['ingest-api']}/api/v2/events`, {
        key,
        body: {
          sessionId: 'three-processes',
          events: [
            {
              eventId: 'tp-1',
              type: 'prompt',
              timestamp: new Date().toISOString(),
              content: `We decided to use Postgres advisory locks for migrations (${secret})`,
            },
          ],
        },
      });
      expect(posted.status).toBe(202);
      const completed = await request(
        `http://127.0.0.1:${ports['ingest-api']}/api/v2/sessions/three-processes/complete`,
        {
          key,
          body: {},
        },
      );
      expect(completed.status).toBe(202);

      await waitFor(async () => {
        const res = await request<{ document: string }>(`http://127.0.0.1:${ports['brain-api']}/api/v2/brain`, { key });
        return res.status === 200 && res.body.document.includes('advisory locks');
      }, 20_000);

      // The item is in the brain once its window commits; the job logs when it finishes, after
      // the entity store is filled, so its lines may come a moment later.
      // Other jobs (the hygiene and entity passes) may log first, so wait for the enrichment's own line.
      const aboutJob = (l: ReturnType<typeof logLines>[number]) => l.msg !== undefined && 'jobId' in l;
      await waitFor(() => logLines(worker).some((l) => aboutJob(l) && l.job === 'enrich-session'), 10_000);
      const workerLines = logLines(worker);
      const jobLines = workerLines.filter(aboutJob);
      expect(jobLines.length).toBeGreaterThan(0);
      // Worker lines about a job carry its id and queue.
      expect(jobLines.every((l) => typeof l.jobId === 'string' && typeof l.queue === 'string')).toBe(true);
      // `job` (the job's name) comes only from the log context, not from any handler's own fields.
      expect(jobLines.some((l) => l.job === 'enrich-session')).toBe(true);
      // Every HTTP line carries its request id; no key and no event content at info level.
      for (const run of [ingest, brain]) {
        const http = logLines(run).filter((l) => 'req' in l);
        expect(http.length).toBeGreaterThan(0);
        expect(http.every((l) => typeof (l.req as { id?: unknown }).id === 'string')).toBe(true);
        // The route template, never the URL with its query string.
        expect(
          http.every(
            (l) =>
              Object.keys(l.req as object)
                .sort()
                .join() === 'id,method',
          ),
        ).toBe(true);
        expect(http.every((l) => typeof l.route === 'string')).toBe(true);
        expect(http.some((l) => l.route === '/api/v2/brain')).toBe(run === brain);
      }
      for (const run of [ingest, worker, brain]) {
        expect(run.stdout()).not.toContain(key);
        expect(run.stdout()).not.toContain(ADMIN_TOKEN);
        expect(run.stdout()).not.toContain(secret);
      }
    }, 60_000);

    it('each process drains and exits on SIGTERM', async () => {
      for (const run of [ingest, worker, brain]) run.child.kill('SIGTERM');
      const exits = await Promise.all([ingest, worker, brain].map((run) => run.exited));
      // Nest re-raises the signal after its shutdown hooks; exit code 1 would be the forced exit.
      expect(exits).toEqual([
        { code: null, signal: 'SIGTERM' },
        { code: null, signal: 'SIGTERM' },
        { code: null, signal: 'SIGTERM' },
      ]);
    });
  },
);
