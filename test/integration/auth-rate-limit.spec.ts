import { randomBytes } from 'node:crypto';
import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { ProjectRepository } from '@memex/db';
import { event, type ErrorBody } from '../support/http';
import { ADMIN_TOKEN, databaseEnv, startTestApp, type TestApp } from '../support/test-app';
import { useTestApp } from '../support/use-test-app';
import { waitFor } from '../support/wait';
import { describeServerOnly, itServerOnly } from '../support/mode';

/**
 * Limits on failed authentication, per presented credential first and per client address
 * second, counted in Redis. The app trusts X-Forwarded-For from 127.0.0.1, so each test speaks
 * from addresses of its own, as clients behind the edge proxy would.
 */
const LIMITS = {
  AUTH_RATE_LIMIT_EXEMPT_LOOPBACK: 'false',
  TRUST_PROXY: '127.0.0.1',
  AUTH_RATE_LIMIT_FAILURES: '5',
  AUTH_RATE_LIMIT_CREDENTIAL_FAILURES: '3',
  AUTH_RATE_LIMIT_WINDOW_SECONDS: '60',
  AUTH_RATE_LIMIT_BLOCK_SECONDS: '120',
};
const ctx = useTestApp([IngestApiModule, BrainApiModule], { env: LIMITS, redisProxy: true });

const randomKey = () => `mx_${randomBytes(32).toString('base64url')}`;
const ADMIN_ROUTE = '/api/v2/admin/jobs?queue=enrichment&state=failed';

async function call(
  url: string,
  from: string,
  authorization: string | undefined,
  path = '/api/v2/brain',
): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const response = await fetch(`${url}${path}`, {
    headers: { 'x-forwarded-for': from, ...(authorization ? { authorization } : {}) },
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: JSON.parse(text || 'null') };
}

const bearer = (token: string) => `Bearer ${token}`;

async function statusesOf(count: number, attempt: (i: number) => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await attempt(i)).status);
  return statuses;
}

describe('failed authentication', () => {
  it('answers an address 429 with Retry-After once its different wrong keys pass its ceiling, and still serves a valid key from it', async () => {
    const office = '203.0.113.7';
    const statuses = await statusesOf(5, () => call(ctx.server.url, office, bearer(randomKey())));
    expect(statuses).toEqual([401, 401, 401, 401, 401]);

    const limited = await call(ctx.server.url, office, bearer(randomKey()));
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThan(100);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(120);
    expect((limited.body as ErrorBody).error).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^too many failed authentication attempts; try again in \d+ s$/),
      details: { retryAfterSeconds: Number(limited.retryAfter) },
    });
    // The guesses are refused; a valid key from the same address is not: it was never guessed.
    expect((await call(ctx.server.url, office, bearer(randomKey()))).status).toBe(429);
    expect((await call(ctx.server.url, office, bearer(ctx.project.apiKey))).status).toBe(200);
    const ingest = await fetch(`${ctx.server.url}/api/v2/events`, {
      method: 'POST',
      headers: {
        'x-forwarded-for': office,
        authorization: bearer(ctx.project.apiKey),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ sessionId: 'rate-limit', events: [event()] }),
    });
    expect(ingest.status).toBe(202);
  });

  it('limits one key whatever address tries it', async () => {
    const revoked = randomKey();
    const statuses = await statusesOf(5, (i) => call(ctx.server.url, `198.51.100.${10 + i}`, bearer(revoked)));
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('blocks a stale key a hook retries from a shared address, not the office behind it', async () => {
    const nat = '203.0.113.60';
    const stale = randomKey();
    const retried = await statusesOf(20, () => call(ctx.server.url, nat, bearer(stale)));
    expect(retried).toEqual([401, 401, 401, ...Array<number>(17).fill(429)]);
    // Its address paid for 3 of those 20: a colleague's typo is still a 401, and valid credentials pass.
    expect((await call(ctx.server.url, nat, bearer(randomKey()))).status).toBe(401);
    expect((await call(ctx.server.url, nat, bearer(ctx.project.apiKey))).status).toBe(200);
    expect((await call(ctx.server.url, nat, bearer(ADMIN_TOKEN), ADMIN_ROUTE)).status).toBe(200);
  });

  it('answers a valid project key at an admin route 403, however often, without counting it as a guess', async () => {
    const from = '203.0.113.70';
    const answers = await statusesOf(12, () => call(ctx.server.url, from, bearer(ctx.project.apiKey), ADMIN_ROUTE));
    expect(answers).toEqual(Array<number>(12).fill(403));
    const refused = await call(ctx.server.url, from, bearer(ctx.project.apiKey), '/api/v2/projects');
    expect(refused.body).toEqual({
      error: { code: 'FORBIDDEN', message: expect.stringMatching(/admin token/), details: {} },
    });
    // The key is not blocked anywhere, and neither is its address.
    expect((await call(ctx.server.url, from, bearer(ctx.project.apiKey))).status).toBe(200);
    expect((await call(ctx.server.url, '198.51.100.70', bearer(ctx.project.apiKey))).status).toBe(200);
    expect((await call(ctx.server.url, from, bearer(ADMIN_TOKEN), ADMIN_ROUTE)).status).toBe(200);
  });

  it('limits admin-token guesses: the right token is refused from an address that never used it, and served where it was used', async () => {
    const attacker = '203.0.113.20';
    const guess = (from: string, i: number) =>
      call(ctx.server.url, from, bearer(`guess-${from}-${i}-${'x'.repeat(16)}`), ADMIN_ROUTE);
    expect(await statusesOf(6, (i) => guess(attacker, i))).toEqual([401, 401, 401, 401, 401, 429]);
    // Checking the token from there would tell the guesser when a guess is right.
    expect((await call(ctx.server.url, attacker, bearer(ADMIN_TOKEN), ADMIN_ROUTE)).status).toBe(429);
    expect((await call(ctx.server.url, '203.0.113.21', bearer(ADMIN_TOKEN), ADMIN_ROUTE)).status).toBe(200);

    // An operator who used the token from an address keeps it when guesses there block the address.
    const office = '203.0.113.22';
    expect((await call(ctx.server.url, office, bearer(ADMIN_TOKEN), ADMIN_ROUTE)).status).toBe(200);
    expect(await statusesOf(6, (i) => guess(office, i))).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await call(ctx.server.url, office, bearer(ADMIN_TOKEN), ADMIN_ROUTE)).status).toBe(200);
    expect((await guess(office, 99)).status).toBe(429);
  });

  itServerOnly('limits Bull Board password guesses, with Retry-After', 'Bull Board reads BullMQ in Redis', async () => {
    const from = '203.0.113.30';
    const basic = (password: string) => `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await call(ctx.server.url, from, basic(`guess-${i}`), '/admin/queues')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const limited = await call(ctx.server.url, from, basic('one-more'), '/admin/queues');
    expect([limited.status, (limited.body as ErrorBody).error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    // Visiting without credentials (a browser's first request) is not a guess.
    expect((await call(ctx.server.url, '203.0.113.31', undefined, '/admin/queues')).status).toBe(401);
  });

  itServerOnly('keeps counting in the process while Redis is away', 'cuts Redis', async () => {
    ctx.redisProxy.cut();
    try {
      const from = '203.0.113.50';
      const statuses = await statusesOf(6, () => call(ctx.server.url, from, bearer(randomKey())));
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    } finally {
      ctx.redisProxy.restore();
      // Counting goes back to Redis once the connection is up again.
      await waitFor(async () => (await fetch(`${ctx.server.url}/health/ready`)).ok);
    }
  });

  it('asks the database about an unknown key once, then remembers it is unknown', async () => {
    const projects = ctx.server.app.get(ProjectRepository);
    const lookups = jest.spyOn(projects, 'findProjectIdByKeyHash');
    try {
      const guess = randomKey();
      for (const from of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
        expect((await call(ctx.server.url, from, bearer(guess))).status).toBeGreaterThanOrEqual(401);
      }
      expect(lookups).toHaveBeenCalledTimes(1);
    } finally {
      lookups.mockRestore();
    }
  });
});

describeServerOnly('two app instances on one Redis', 'replicas share their counts through Redis', () => {
  let second: TestApp;

  beforeAll(async () => {
    second = await startTestApp([IngestApiModule, BrainApiModule], {
      ...LIMITS,
      DATABASE_URL: ctx.database.url,
      QUEUE_PREFIX: ctx.server.config.QUEUE_PREFIX,
    });
  });
  afterAll(async () => {
    await second?.app.close();
  });

  it('share the count: failures on either add up to one limit', async () => {
    const from = '203.0.113.40';
    const statuses: number[] = [];
    for (const url of [ctx.server.url, ctx.server.url, ctx.server.url, second.url, second.url, second.url]) {
      statuses.push((await call(url, from, bearer(randomKey()))).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // The first instance learns of the block from Redis on its next failure.
    expect((await call(ctx.server.url, from, bearer(randomKey()))).status).toBe(429);
  });
});

describe('loopback exemption', () => {
  let exempt: TestApp;

  beforeAll(async () => {
    exempt = await startTestApp([BrainApiModule], {
      AUTH_RATE_LIMIT_FAILURES: '2',
      AUTH_RATE_LIMIT_EXEMPT_LOOPBACK: 'true',
      ...databaseEnv(ctx.database),
    });
  });
  afterAll(async () => {
    await exempt?.close();
  });

  it('never limits 127.0.0.1 when exempt', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${exempt.url}/api/v2/brain`, { headers: { authorization: bearer(randomKey()) } });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
  });
});
