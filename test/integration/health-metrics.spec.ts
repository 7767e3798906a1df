import { sql } from 'kysely';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { event, request, type ErrorBody } from '../support/http';
import { ADMIN_TOKEN, databaseEnv, startTestApp } from '../support/test-app';
import { useTestApp } from '../support/use-test-app';
import { waitForHttp } from '../support/processes';
import { describeServerOnly, itServerOnly } from '../support/mode';

const METRICS_TOKEN = 'test-metrics-token-0123456789';
const ctx = useTestApp([IngestApiModule], { redisProxy: true, env: { METRICS_TOKEN } });

describe('health', () => {
  itServerOnly(
    'survives its idle database connections being killed',
    'terminates backends of a database server',
    async () => {
      // Warm the pool, so it holds idle connections to kill.
      expect((await request(`${ctx.server.url}/health/ready`)).status).toBe(200);
      const name = new URL(ctx.database.url).pathname.slice(1);
      const { rows } = await sql<{ n: number }>`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
       where datname = ${name} and application_name = 'memex' and state = 'idle'`.execute(ctx.database.db);
      expect(rows[0]!.n).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 200));
      // Unheard, the broken idle clients' errors would have ended the process (and this test file).
      expect((await request(`${ctx.server.url}/health/ready`)).status).toBe(200);
    },
  );

  it('is live', async () => {
    expect(await request(`${ctx.server.url}/health/live`)).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  itServerOnly('is ready while Postgres and Redis answer, and not while Redis is away', 'cuts Redis', async () => {
    const ready = await request(`${ctx.server.url}/health/ready`);
    expect(ready).toMatchObject({ status: 200, body: { checks: { postgres: { ok: true }, redis: { ok: true } } } });

    ctx.redisProxy.cut();
    const down = await request(`${ctx.server.url}/health/ready`);
    expect(down).toMatchObject({
      status: 503,
      body: { status: 'unavailable', checks: { postgres: { ok: true }, redis: { ok: false } } },
    });
    ctx.redisProxy.restore();

    await waitForHttp(`${ctx.server.url}/health/ready`, 5_000);
    expect((await request(`${ctx.server.url}/health/ready`)).status).toBe(200);
  });
});

describe('metrics', () => {
  it('counts requests by route and status, events, duplicates and queue depth', async () => {
    const { apiKey } = ctx.project;
    const e = event();
    await request(`${ctx.server.url}/api/v2/events`, { key: apiKey, body: { sessionId: 'm', events: [e, event()] } });
    await request(`${ctx.server.url}/api/v2/events`, { key: apiKey, body: { sessionId: 'm', events: [e] } });
    await request(`${ctx.server.url}/api/v2/events`, { key: apiKey, body: { sessionId: 'm' } });

    const text = (await request<string>(`${ctx.server.url}/metrics`, { key: METRICS_TOKEN })).body;
    expect(text).toContain('memex_http_requests_total{method="POST",route="/api/v2/events",status="202"} 2');
    expect(text).toContain('memex_http_requests_total{method="POST",route="/api/v2/events",status="400"} 1');
    expect(text).toMatch(/^memex_ingest_events_accepted_total 2$/m);
    expect(text).toMatch(/^memex_ingest_events_duplicate_total 1$/m);
    expect(text).toMatch(/^memex_ingest_enqueue_failures_total 0$/m);
    expect(text).toMatch(/^memex_queue_depth\{queue="enrichment",state="delayed"\} 1$/m);
  });
});

describe('metrics access', () => {
  it('answers a scrape with METRICS_TOKEN or the admin token, and nobody else', async () => {
    const scrape = (key?: string) => request<string | ErrorBody>(`${ctx.server.url}/metrics`, { key });
    for (const key of [METRICS_TOKEN, ADMIN_TOKEN]) {
      const ok = await scrape(key);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatch(/^memex_http_requests_total/m);
    }
    const anonymous = await scrape();
    expect(anonymous.status).toBe(401);
    expect((anonymous.body as ErrorBody).error.code).toBe('UNAUTHORIZED');
    expect((await scrape('not-the-metrics-token-at-all')).status).toBe(401);
    // A project key opens its own project's endpoints; this is not one: 403, not a wrong admin token.
    const projectKey = await scrape(ctx.project.apiKey);
    expect(projectKey.status).toBe(403);
    expect(projectKey.body).toEqual({
      error: { code: 'FORBIDDEN', message: expect.stringMatching(/admin token/), details: {} },
    });
  });

  it('names no project in any metric, even the secrets it found', async () => {
    const secret = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
    const sent = await request(`${ctx.server.url}/api/v2/events`, {
      key: ctx.project.apiKey,
      body: { sessionId: 'metric-labels', events: [event({ content: `export GH_TOKEN=${secret}` })] },
    });
    expect(sent.status).toBe(202);
    const text = (await request<string>(`${ctx.server.url}/metrics`, { key: METRICS_TOKEN })).body;
    expect(text).toMatch(/^memex_redactions_total\{rule="github-token"\} [1-9]/m);
    expect(text).not.toContain(ctx.project.projectId);
    expect(text).not.toMatch(/project="/);
  });

  it('is closed while neither METRICS_TOKEN nor the admin token is set', async () => {
    const closed = await startTestApp([IngestApiModule], {
      MEMEX_ADMIN_TOKEN: undefined,
      ...databaseEnv(ctx.database),
    });
    try {
      const res = await request<ErrorBody>(`${closed.url}/metrics`, { key: METRICS_TOKEN });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({
        code: 'ADMIN_DISABLED',
        message: expect.stringContaining('METRICS_TOKEN or MEMEX_ADMIN_TOKEN'),
      });
    } finally {
      await closed.close();
    }
  });
});

describeServerOnly('a Redis that stops answering', 'cuts Redis', () => {
  it('still accepts events (answering within the command timeout), still serves metrics, and is not ready', async () => {
    const { apiKey } = ctx.project;
    ctx.redisProxy.blackhole();
    try {
      const res = await request(`${ctx.server.url}/api/v2/events`, {
        key: apiKey,
        body: { sessionId: 'silent-redis', events: [event()] },
      });
      expect(res).toMatchObject({ status: 202, body: { accepted: 1, duplicates: 0 } });
      const metrics = await request<string>(`${ctx.server.url}/metrics`, { key: METRICS_TOKEN });
      expect(metrics.status).toBe(200);
      expect(metrics.body).toMatch(/^memex_ingest_enqueue_failures_total [1-9]/m);
      expect((await request(`${ctx.server.url}/health/ready`)).status).toBe(503);
    } finally {
      ctx.redisProxy.restore();
    }
    await waitForHttp(`${ctx.server.url}/health/ready`, 10_000);
    expect((await request(`${ctx.server.url}/health/ready`)).status).toBe(200);
  });
});
