import { EnqueueReconciler, EventsModule } from '@memex/feature-events';
import { UnrecoverableError } from '@memex/queue';
import { startQueueWorker } from '../../../test/support/queue-worker';
import { event, request } from '../../../test/support/http';
import { ADMIN_TOKEN } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { waitFor } from '../../../test/support/wait';
import { itServerOnly } from '../../../test/support/mode';

const ctx = useTestApp([EventsModule], {
  redisProxy: true,
  env: { ENRICHMENT_DEBOUNCE_MS: '0', RECONCILE_GRACE_MS: '1000' },
});

async function metric(name: string): Promise<number> {
  const res = await request<string>(`${ctx.server.url}/metrics`, { key: ADMIN_TOKEN });
  const line = res.body.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

describe('reconciler', () => {
  itServerOnly('enqueues a session whose enqueue was lost while Redis was unreachable', 'cuts Redis', async () => {
    ctx.redisProxy.cut();
    const res = await request(`${ctx.server.url}/api/v2/events`, {
      key: ctx.project.apiKey,
      body: { sessionId: 'lost', events: [event(), event()] },
    });
    // Postgres has the events: the client is told so even though the enqueue failed.
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: 2, duplicates: 0 });
    expect(await metric('memex_ingest_enqueue_failures_total')).toBe(1);

    ctx.redisProxy.restore();
    expect(await ctx.queue.queue.getJobCounts('waiting', 'delayed')).toMatchObject({ waiting: 0, delayed: 0 });

    const session = await ctx.database.db
      .selectFrom('sessions')
      .selectAll()
      .where('external_id', '=', 'lost')
      .executeTakeFirstOrThrow();
    const reconciler = ctx.server.app.get(EnqueueReconciler);

    // Within the grace period the session is left to the normal enqueue path.
    expect(await reconciler.runOnce(new Date(session.last_event_at.getTime() + 500))).toBe(0);

    // Once the ingest side's Redis connection is back, the reconciler makes the enqueue good.
    const later = new Date(session.last_event_at.getTime() + 5000);
    let enqueued = 0;
    for (let attempt = 0; attempt < 50 && enqueued === 0; attempt += 1) {
      enqueued = await reconciler.runOnce(later);
      if (enqueued === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(enqueued).toBe(1);
    const jobs = await ctx.queue.queue.getJobs(['waiting']);
    expect(jobs.map((j) => j.data)).toEqual([{ projectId: ctx.project.projectId, sessionId: session.id }]);

    // A second pass over the same state adds nothing.
    await reconciler.runOnce(later);
    expect(await ctx.queue.queue.getJobs(['waiting'])).toHaveLength(1);
  });

  it('leaves sessions whose cursor has caught up alone', async () => {
    await request(`${ctx.server.url}/api/v2/events`, {
      key: ctx.project.apiKey,
      body: { sessionId: 'caught-up', events: [event()] },
    });
    await ctx.database.db
      .updateTable('sessions')
      .set((eb) => ({ enrichment_cursor: eb.ref('last_event_seq') }))
      .execute();
    await ctx.queue.queue.drain(true);
    expect(await ctx.server.app.get(EnqueueReconciler).runOnce(new Date(Date.now() + 60_000))).toBe(0);
  });

  it('pages through every lagging session, and counts only the jobs it really added', async () => {
    await ctx.queue.queue.obliterate({ force: true });
    const old = new Date(Date.now() - 3_600_000);
    const rows = Array.from({ length: 620 }, (_, i) => ({
      id: `01PAGE${String(i).padStart(20, '0')}`,
      project_id: ctx.project.projectId,
      external_id: `paged-${i}`,
      last_event_at: old,
      last_event_seq: 1,
    }));
    await ctx.database.db.insertInto('sessions').values(rows).execute();
    const reconciler = ctx.server.app.get(EnqueueReconciler);
    expect(await reconciler.runOnce()).toBe(620);
    const waiting = await ctx.queue.queue.getJobs(['waiting']);
    expect(new Set(waiting.map((j) => j.data.sessionId)).size).toBe(620);
    // Their jobs are waiting: a second pass adds nothing and says so.
    expect(await reconciler.runOnce()).toBe(0);
  });

  it('leaves a job that failed for good to operators, and replaces one that finished while its session still lags', async () => {
    await ctx.queue.queue.obliterate({ force: true });
    await ctx.database.db.deleteFrom('sessions').where('external_id', 'like', 'paged-%').execute();
    const old = new Date(Date.now() - 3_600_000);
    await ctx.database.db
      .insertInto('sessions')
      .values(
        ['fails', 'finishes'].map((name, i) => ({
          id: `01STATE${String(i).padStart(19, '0')}`,
          project_id: ctx.project.projectId,
          external_id: name,
          last_event_at: old,
          last_event_seq: 7,
        })),
      )
      .execute();
    const reconciler = ctx.server.app.get(EnqueueReconciler);
    expect(await reconciler.runOnce()).toBe(2);

    // A worker that fails the one for good (no retries left) and completes the other without moving its cursor.
    const worker = startQueueWorker(ctx, async (job) => {
      if ((job.data as { sessionId: string }).sessionId.endsWith('0')) throw new UnrecoverableError('model down');
      return 'done';
    });
    try {
      await waitFor(async () => {
        const counts = await ctx.queue.queue.getJobCounts('failed', 'completed');
        return counts.failed === 1 && counts.completed === 1;
      });
    } finally {
      await worker.close();
    }

    expect(await reconciler.runOnce()).toBe(1);
    const waiting = await ctx.queue.queue.getJobs(['waiting']);
    expect(waiting.map((j) => j.data.sessionId)).toEqual([`01STATE${String(1).padStart(19, '0')}`]);
    const failed = await ctx.queue.queue.getJobs(['failed']);
    expect(failed.map((j) => j.failedReason)).toEqual(['model down']);
  });
});
