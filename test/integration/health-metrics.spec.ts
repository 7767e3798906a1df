import { IngestApiModule } from '../../apps/ingest-api/src';
import { ProjectRepository } from '@memex/db';
import { event, request } from '../support/http';
import { TcpProxy } from '../support/tcp-proxy';
import { TEST_REDIS_URL, startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

let database: TestDatabase;
let proxy: TcpProxy;
let server: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  const redis = new URL(TEST_REDIS_URL);
  proxy = await new TcpProxy(redis.hostname, Number(redis.port || 6379)).start();
  server = await startTestApp([IngestApiModule], {
    DATABASE_URL: database.url,
    REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
  });
});

afterAll(async () => {
  await server.close();
  await proxy.stop();
  await database.drop();
});

describe('health', () => {
  it('is live', async () => {
    expect(await request(`${server.url}/health/live`)).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('is ready while Postgres and Redis answer, and not while Redis is away', async () => {
    const ready = await request(`${server.url}/health/ready`);
    expect(ready).toMatchObject({ status: 200, body: { checks: { postgres: { ok: true }, redis: { ok: true } } } });

    proxy.cut();
    const down = await request(`${server.url}/health/ready`);
    expect(down).toMatchObject({
      status: 503,
      body: { status: 'unavailable', checks: { postgres: { ok: true }, redis: { ok: false } } },
    });
    proxy.restore();

    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await request(`${server.url}/health/ready`)).status;
    }
    expect(status).toBe(200);
  });
});

describe('metrics', () => {
  it('counts requests by route and status, events, duplicates and queue depth', async () => {
    const { apiKey } = await server.app.get(ProjectRepository).createWithKey('metrics');
    const e = event();
    await request(`${server.url}/api/v2/events`, { key: apiKey, body: { sessionId: 'm', events: [e, event()] } });
    await request(`${server.url}/api/v2/events`, { key: apiKey, body: { sessionId: 'm', events: [e] } });
    await request(`${server.url}/api/v2/events`, { key: apiKey, body: { sessionId: 'm' } });

    const text = (await request<string>(`${server.url}/metrics`)).body;
    expect(text).toContain('memex_http_requests_total{method="POST",route="/api/v2/events",status="202"} 2');
    expect(text).toContain('memex_http_requests_total{method="POST",route="/api/v2/events",status="400"} 1');
    expect(text).toMatch(/^memex_ingest_events_accepted_total 2$/m);
    expect(text).toMatch(/^memex_ingest_events_duplicate_total 1$/m);
    expect(text).toMatch(/^memex_ingest_enqueue_failures_total 0$/m);
    expect(text).toMatch(/^memex_queue_depth\{queue="enrichment",state="delayed"\} 1$/m);
  });
});
