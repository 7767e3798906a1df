import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { JOBS, QUEUES, UnrecoverableError } from '@memex/queue';
import { request, type ErrorBody } from '../support/http';
import { startQueueWorker } from '../support/queue-worker';
import { ADMIN_TOKEN } from '../support/test-app';
import { useTestApp } from '../support/use-test-app';
import { waitFor } from '../support/wait';
import { describeServerOnly } from '../support/mode';

const ctx = useTestApp([IngestApiModule, BrainApiModule], { redisProxy: true });

describe('operator job endpoints', () => {
  it('lists failed jobs with their reason and sends one round again', async () => {
    const payload = { projectId: ctx.project.projectId, sessionId: '01ADMIN0000000000000000000' };
    await ctx.queue.queue.add(JOBS.enrichSession.name, payload, { jobId: 'doomed' });
    let fail = true;
    const worker = startQueueWorker(ctx, async () => {
      if (fail) throw new UnrecoverableError('model endpoint unreachable');
      return 'ok';
    });
    try {
      await waitFor(async () => (await ctx.queue.queue.getJobCounts('failed')).failed === 1);
      const list = await request<{ jobs: Array<{ id: string; failedReason: string; data: unknown }> }>(
        `${ctx.server.url}/api/v2/admin/jobs?state=failed`,
        { key: ADMIN_TOKEN },
      );
      expect(list.status).toBe(200);
      expect(list.body.jobs).toEqual([
        expect.objectContaining({ id: 'doomed', failedReason: 'model endpoint unreachable', data: payload }),
      ]);

      fail = false;
      const retry = await request(`${ctx.server.url}/api/v2/admin/jobs/enrichment/doomed/retry`, {
        key: ADMIN_TOKEN,
        method: 'POST',
      });
      expect(retry).toMatchObject({ status: 202, body: { id: 'doomed', state: 'waiting' } });
      await waitFor(async () => (await ctx.queue.queue.getJob('doomed'))?.returnvalue === 'ok');

      const again = await request<ErrorBody>(`${ctx.server.url}/api/v2/admin/jobs/enrichment/doomed/retry`, {
        key: ADMIN_TOKEN,
        method: 'POST',
      });
      expect(again.status).toBe(409);
    } finally {
      await worker.close();
    }
  });

  it('answers 404 for an unknown job, 400 for an unknown queue or state, 403 to a project key', async () => {
    const missing = await request(`${ctx.server.url}/api/v2/admin/jobs/enrichment/nope/retry`, {
      key: ADMIN_TOKEN,
      method: 'POST',
    });
    expect(missing.status).toBe(404);
    expect((await request(`${ctx.server.url}/api/v2/admin/jobs?queue=mail`, { key: ADMIN_TOKEN })).status).toBe(400);
    // Every queue of the registry can be listed, and asked for a job.
    for (const queue of Object.values(QUEUES)) {
      const list = await request<{ queue: string; jobs: unknown[] }>(
        `${ctx.server.url}/api/v2/admin/jobs?queue=${queue}&state=failed`,
        { key: ADMIN_TOKEN },
      );
      expect({ queue, status: list.status }).toEqual({ queue, status: 200 });
      expect(list.body).toMatchObject({ queue, state: 'failed', jobs: expect.any(Array) });
      const retry = await request(`${ctx.server.url}/api/v2/admin/jobs/${queue}/nope/retry`, {
        key: ADMIN_TOKEN,
        method: 'POST',
      });
      expect({ queue, status: retry.status }).toEqual({ queue, status: 404 });
    }
    expect((await request(`${ctx.server.url}/api/v2/admin/jobs?state=zombie`, { key: ADMIN_TOKEN })).status).toBe(400);
    expect((await request(`${ctx.server.url}/api/v2/admin/jobs`, { key: ctx.project.apiKey })).status).toBe(403);
    expect((await request(`${ctx.server.url}/api/v2/admin/jobs`)).status).toBe(401);
  });
});

describeServerOnly('operator queue endpoints while Redis is away', 'cuts Redis', () => {
  it('answer 503 QUEUE_UNAVAILABLE with Retry-After, for every route on the queues, and recover', async () => {
    const routes: Array<[string, string]> = [
      ['GET', '/api/v2/admin/jobs?state=failed'],
      ['GET', '/api/v2/admin/jobs?queue=hygiene&state=waiting'],
      ['POST', '/api/v2/admin/jobs/enrichment/some-job/retry'],
      ['GET', '/api/v2/admin/queues'],
      // Bull Board's API, which would answer a 500 of its own.
      ['GET', '/admin/queues/api/queues'],
      ['GET', '/admin/queues/api/queues?activeQueue=enrichment&status=failed&page=1'],
    ];
    ctx.redisProxy.cut();
    try {
      for (const [method, path] of routes) {
        const res = await request<ErrorBody>(`${ctx.server.url}${path}`, { key: ADMIN_TOKEN, method });
        expect({ method, path, status: res.status, retryAfter: res.headers.get('retry-after') }).toEqual({
          method,
          path,
          status: 503,
          retryAfter: '2',
        });
        expect(res.body.error).toMatchObject({
          code: 'QUEUE_UNAVAILABLE',
          message: expect.stringMatching(/try again/),
        });
      }
      // What needs no queue is served meanwhile.
      expect((await request(`${ctx.server.url}/api/v2/admin/metrics`, { key: ADMIN_TOKEN })).status).toBe(200);
    } finally {
      ctx.redisProxy.restore();
    }
    await waitFor(
      async () =>
        (await request(`${ctx.server.url}/api/v2/admin/jobs?state=failed`, { key: ADMIN_TOKEN })).status === 200,
    );
    const missing = await request(`${ctx.server.url}/api/v2/admin/jobs/enrichment/some-job/retry`, {
      key: ADMIN_TOKEN,
      method: 'POST',
    });
    expect(missing.status).toBe(404);
  });
});
