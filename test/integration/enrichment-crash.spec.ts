import { Client } from 'pg';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { rawEvent } from '../support/events';
import { request } from '../support/http';
import { freePort, runEntry, waitForHttp, type RunningProcess } from '../support/processes';
import { ScriptedLlm, modelAnswer, outboxAnswer, outboxEvents } from '../support/scripted-llm';
import { TEST_REDIS_URL } from '../support/test-app';
import { useTestApp } from '../support/use-test-app';
import { waitFor } from '../support/wait';
import { describeServerOnly } from '../support/mode';

const llm = new ScriptedLlm();
beforeAll(() => llm.start());
afterAll(() => llm.stop());

const ctx = useTestApp([IngestApiModule], { env: { ENRICHMENT_DEBOUNCE_MS: '0' } });

const WORKER = 'apps/enrichment-worker/src/main.js';

async function startWorker(): Promise<RunningProcess> {
  const port = await freePort();
  const worker = runEntry(WORKER, {
    DATABASE_URL: ctx.database.url,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: ctx.server.config.QUEUE_PREFIX,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    LLM_BASE_URL: llm.url,
    LLM_TIMEOUT_MS: '60000',
    WORKER_STALLED_INTERVAL_MS: '1000',
  });
  await waitForHttp(`http://127.0.0.1:${port}/health/ready`);
  return worker;
}

/** Until the worker's cursor reaches the session's last event. */
function caughtUp(session: { id: string; last_event_seq: number }): Promise<void> {
  return waitFor(async () => {
    const s = await ctx.database.db
      .selectFrom('sessions')
      .select('enrichment_cursor')
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    return s.enrichment_cursor === session.last_event_seq;
  });
}

/** Sends a session's events through the ingest API, as the hooks do; it takes them for enrichment. */
async function postEvents(sessionId: string, events: unknown[]): Promise<void> {
  const res = await request(`${ctx.server.url}/api/v2/events`, {
    key: ctx.project.apiKey,
    body: { sessionId, events },
  });
  expect(res.status).toBe(202);
}

/** Model calls the project has paid for, as the usage ledger counts them. */
async function paidCalls(): Promise<number> {
  const usage = await ctx.database.db.selectFrom('llm_usage').select('calls').execute();
  return usage.reduce((n, u) => n + u.calls, 0);
}

describeServerOnly(
  'a worker killed mid-job',
  'worker processes share the database and BullMQ; embedded-process.spec kills the embedded process',
  () => {
    it('loses nothing and duplicates nothing: BullMQ hands the job to the next worker', async () => {
      const events = outboxEvents();
      llm.enqueue({ hang: true });
      llm.enqueue({ content: outboxAnswer(events) });

      const first = await startWorker();
      try {
        await postEvents('crash', events);
        // The worker is inside the job, waiting on the model, when it dies.
        await waitFor(() => llm.requests.length === 1);
        first.child.kill('SIGKILL');
        expect((await first.exited).signal).toBe('SIGKILL');
      } finally {
        first.child.kill('SIGKILL');
      }

      const session = await ctx.database.db
        .selectFrom('sessions')
        .selectAll()
        .where('external_id', '=', 'crash')
        .executeTakeFirstOrThrow();
      expect(session.enrichment_cursor).toBe(0);

      const second = await startWorker();
      try {
        await caughtUp(session);
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }

      expect(llm.requests).toHaveLength(2);
      const items = await ctx.database.db
        .selectFrom('memory_items')
        .select(['type', 'dedup_hint'])
        .where('session_id', '=', session.id)
        .execute();
      expect(items.map((i) => i.dedup_hint).sort()).toEqual([
        'decision:email:outbox-table',
        'todo:email:outbox-backfill',
      ]);
      const jobs = await ctx.queue.queue.getJobs(['completed']);
      expect(jobs.some((j) => j.data.sessionId === session.id && j.returnvalue?.created === 2)).toBe(true);
    }, 60_000);

    it('killed after the model answered, a window is not sent to the model again', async () => {
      const events = [
        rawEvent('prompt', 'We decided to sign every webhook with a per-tenant secret, rotated monthly.'),
      ];
      llm.enqueue({
        content: modelAnswer([
          {
            type: 'Decision',
            title: 'Sign webhooks with a per-tenant secret',
            facts: 'Each tenant has its own webhook signing secret, rotated monthly.',
            evidence: [{ eventId: events[0]!.eventId, quote: 'sign every webhook with a per-tenant secret' }],
          },
        ]),
      });
      const asked = llm.requests.length;
      const callsBefore = await paidCalls();
      await postEvents('answered', events);
      const session = await ctx.database.db
        .selectFrom('sessions')
        .selectAll()
        .where('external_id', '=', 'answered')
        .executeTakeFirstOrThrow();

      // Hold the session row, so the window's write waits after the model has answered.
      const holder = new Client({ connectionString: ctx.database.url });
      await holder.connect();
      await holder.query('begin');
      await holder.query('select 1 from sessions where id = $1 for update', [session.id]);
      const first = await startWorker();
      try {
        await waitFor(async () => {
          const kept = await ctx.database.db
            .selectFrom('model_windows')
            .select('session_id')
            .where('session_id', '=', session.id)
            .execute();
          return kept.length === 1;
        });
        first.child.kill('SIGKILL');
        await first.exited;
      } finally {
        first.child.kill('SIGKILL');
      }
      const second = await startWorker();
      try {
        await holder.query('commit');
        await caughtUp(session);
      } finally {
        await holder.end();
        second.child.kill('SIGTERM');
        await second.exited;
      }
      // One request for the window, whatever became of the worker that made it.
      expect(llm.requests).toHaveLength(asked + 1);
      const items = await ctx.database.db
        .selectFrom('memory_items')
        .select('title')
        .where('session_id', '=', session.id)
        .execute();
      expect(items).toEqual([{ title: 'Sign webhooks with a per-tenant secret' }]);
      const jobs = await ctx.queue.queue.getJobs(['completed']);
      expect(jobs.some((j) => j.data.sessionId === session.id && j.returnvalue?.replayed === 1)).toBe(true);
      expect((await paidCalls()) - callsBefore).toBe(1);
    }, 60_000);

    it('on SIGTERM takes no new job, finishes the one it runs, then exits', async () => {
      const events = [rawEvent('prompt', 'We decided to keep webhook secrets in the vault, never in the database.')];
      llm.enqueue({
        delayMs: 1500,
        content: modelAnswer([
          {
            type: 'Decision',
            title: 'Keep webhook secrets in the vault',
            facts: 'Webhook secrets live in the vault, not in the database.',
            schemaKey: 'root/decisions',
            dedupHint: 'decision:webhooks:secrets-in-vault',
            importance: 4,
            confidence: 0.9,
            evidence: [{ eventId: events[0]!.eventId, quote: 'keep webhook secrets in the vault' }],
          },
        ]),
      });
      const asked = llm.requests.length;
      const worker = await startWorker();
      try {
        await postEvents('drain', events);
        await waitFor(() => llm.requests.length === asked + 1);
        worker.child.kill('SIGTERM');
        // Nest re-raises the signal once its shutdown hooks (the worker's close) are done; 1 would be the forced exit.
        const exit = await worker.exited;
        expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
      } finally {
        worker.child.kill('SIGKILL');
      }
      const items = await ctx.database.db
        .selectFrom('memory_items')
        .innerJoin('sessions', 'sessions.id', 'memory_items.session_id')
        .select('memory_items.dedup_hint')
        .where('sessions.external_id', '=', 'drain')
        .execute();
      expect(items.map((i) => i.dedup_hint)).toEqual(['decision:webhooks:secrets-in-vault']);
    }, 60_000);
  },
);
