import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { event, request, type ErrorBody } from '../support/http';
import { useTestApp } from '../support/use-test-app';
import { databaseUrl } from '../support/test-database';
import { Client } from 'pg';
import { waitFor } from '../support/wait';
import { describeServerOnly } from '../support/mode';
import { refusingServerUnavailable, startRefusingServer } from '../support/standby-server';

// The app connects as a role of its own, as in production, so the limits PostgreSQL waives for superusers apply.
const ctx = useTestApp([IngestApiModule, BrainApiModule], { databaseProxy: true, ownRole: true });

const UNAVAILABLE = {
  status: 503,
  body: { error: { code: 'DATABASE_UNAVAILABLE', message: expect.stringContaining('try again') } },
};

describeServerOnly('PostgreSQL away', 'cuts the connection to a database server', () => {
  afterEach(() => ctx.databaseProxy.restore());

  /** A read and a write (to `sessionId`) each answer 503 DATABASE_UNAVAILABLE with Retry-After. */
  async function expectReadAndWriteUnavailable(sessionId: string): Promise<void> {
    const key = ctx.project.apiKey;
    for (const [path, init] of [
      ['/api/v2/memory-items?limit=5', { key }],
      ['/api/v2/events', { key, body: { sessionId, events: [event()] } }],
    ] as const) {
      const res = await request<ErrorBody>(`${ctx.server.url}${path}`, init);
      expect({ path, status: res.status, body: res.body }).toMatchObject({ path, ...UNAVAILABLE });
      expect(res.headers.get('retry-after')).toBe('2');
    }
  }

  /** Runs `work` with a superuser connection of the test's own and the app's database's name. */
  async function asAdmin(work: (admin: Client, name: string) => Promise<void>): Promise<void> {
    const admin = new Client({ connectionString: databaseUrl('postgres') });
    await admin.connect();
    try {
      await work(admin, decodeURIComponent(new URL(ctx.database.url).pathname.slice(1)));
    } finally {
      await admin.end();
    }
  }

  /** Ends the app's connections to its database: the next request must connect again. */
  function endAppConnections(admin: Client, name: string) {
    return admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and usename = $2`, [
      name,
      ctx.databaseRole,
    ]);
  }

  /** Waits until a write to `sessionId` is taken again. */
  async function writesRecover(sessionId: string): Promise<void> {
    const key = ctx.project.apiKey;
    await waitFor(
      async () =>
        (await request(`${ctx.server.url}/api/v2/events`, { key, body: { sessionId, events: [event()] } })).status ===
        202,
    );
  }

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After, reads and writes alike, then recovers', async () => {
    const key = ctx.project.apiKey;
    const url = ctx.server.url;
    // The key is looked up (and cached) while the database answers.
    expect((await request(`${url}/api/v2/brain`, { key })).status).toBe(200);

    ctx.databaseProxy.cut();
    const attempts: Array<[string, { key: string; body?: unknown; method?: string }]> = [
      ['/api/v2/brain?tokenBudget=2222', { key }],
      ['/api/v2/memory-items', { key }],
      ['/api/v2/search?q=anything', { key }],
      ['/api/v2/context-pack', { key, body: { query: 'anything', maxTokens: 200 } }],
      ['/api/v2/events', { key, body: { sessionId: 'away', events: [event()] } }],
      ['/api/v2/memory-items', { key, body: { type: 'Decision', title: 'Use queues', facts: 'Queues decouple.' } }],
    ];
    for (const [path, init] of attempts) {
      const res = await request<ErrorBody>(`${url}${path}`, init);
      expect({ path, status: res.status, body: res.body }).toMatchObject({ path, ...UNAVAILABLE });
      expect(res.headers.get('retry-after')).toBe('2');
    }
    const mcp = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'memex_search', arguments: { query: 'anything' } },
      }),
    });
    const answer = (await mcp.json()) as { result: { isError: boolean; content: Array<{ text: string }> } };
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0]!.text).toMatch(/^DATABASE_UNAVAILABLE: /);

    ctx.databaseProxy.restore();
    await waitFor(async () => (await request(`${url}/health/ready`)).status === 200);
    expect((await request(`${url}/api/v2/brain`, { key })).status).toBe(200);
    expect(
      await request(`${url}/api/v2/events`, { key, body: { sessionId: 'away', events: [event()] } }),
    ).toMatchObject({ status: 202, body: { accepted: 1 } });
  });

  it('answers 503 with Retry-After, not 500, while the database refuses new connections, then recovers', async () => {
    expect((await request(`${ctx.server.url}/api/v2/brain`, { key: ctx.project.apiKey })).status).toBe(200);
    await asAdmin(async (admin, name) => {
      try {
        // Closed to new connections (SQLSTATE 55000), and the app's open ones ended.
        await admin.query(`alter database "${name}" allow_connections false`);
        await endAppConnections(admin, name);
        await expectReadAndWriteUnavailable('closed');
      } finally {
        await admin.query(`alter database "${name}" allow_connections true`);
      }
    });
    await writesRecover('closed');
  });

  it('answers 503 with Retry-After, not 500, while the app is at its connection limit, then recovers', async () => {
    expect((await request(`${ctx.server.url}/api/v2/brain`, { key: ctx.project.apiKey })).status).toBe(200);
    await asAdmin(async (admin, name) => {
      try {
        // The role may open no connection (SQLSTATE 53300), and the app's open ones ended.
        await admin.query(`alter role "${ctx.databaseRole}" connection limit 0`);
        await endAppConnections(admin, name);
        await expectReadAndWriteUnavailable('at-limit');
      } finally {
        await admin.query(`alter role "${ctx.databaseRole}" connection limit -1`);
      }
    });
    await writesRecover('at-limit');
  });

  const noStandby = refusingServerUnavailable();
  (noStandby ? it.skip : it)(
    `answers 503 with Retry-After, not 500, while the server is starting (57P03), then recovers${noStandby ? ` [skipped: ${noStandby}]` : ''}`,
    async () => {
      expect((await request(`${ctx.server.url}/api/v2/brain`, { key: ctx.project.apiKey })).status).toBe(200);
      const starting = await startRefusingServer();
      const direct = new URL(ctx.database.url);
      try {
        // The database's address now leads to a server still in recovery; the app's connections end.
        ctx.databaseProxy.redirect('127.0.0.1', starting.port);
        await expectReadAndWriteUnavailable('starting');
      } finally {
        ctx.databaseProxy.redirect(direct.hostname, Number(direct.port || 5432));
        await starting.stop();
      }
      await writesRecover('starting');
    },
    30_000,
  );

  it('answers a write 503 with Retry-After, not 500, while the database is read-only (a failover), and reads go on', async () => {
    const key = ctx.project.apiKey;
    const url = ctx.server.url;
    await asAdmin(async (admin, name) => {
      try {
        // Every new connection is read-only (SQLSTATE 25006 on a write), as on a standby.
        await admin.query(`alter database "${name}" set default_transaction_read_only = on`);
        await endAppConnections(admin, name);
        await waitFor(async () => (await request(`${url}/api/v2/memory-items?limit=5`, { key })).status === 200);
        const res = await request<ErrorBody>(`${url}/api/v2/events`, {
          key,
          body: { sessionId: 'read-only', events: [event()] },
        });
        expect({ status: res.status, body: res.body }).toMatchObject(UNAVAILABLE);
        expect(res.headers.get('retry-after')).toBe('2');
      } finally {
        await admin.query(`alter database "${name}" reset default_transaction_read_only`);
        await endAppConnections(admin, name);
      }
    });
    await writesRecover('read-only');
  });
});
