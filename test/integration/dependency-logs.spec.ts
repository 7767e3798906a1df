import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeServerOnly } from '../support/mode';
import { freePort, runEntry, waitForHttp, type RunningProcess } from '../support/processes';
import { ADMIN_TOKEN, TEST_REDIS_URL, purgeQueuePrefix } from '../support/test-app';
import { createTestDatabase, uniqueName, type TestDatabase } from '../support/test-database';
import { TcpProxy } from '../support/tcp-proxy';
import { waitFor } from '../support/wait';

/**
 * An operator's log collector reads one JSON object per line. When Redis goes away, BullMQ and
 * ioredis report every failed reconnect; a connection without a listener prints them as raw,
 * multi-line stack traces on stderr, which the collector cannot read.
 */
describeServerOnly('log lines during a Redis outage', 'cuts Redis', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let memex: RunningProcess | undefined;
  const prefix = uniqueName('memex_test');

  beforeAll(async () => {
    database = await createTestDatabase();
    const redis = new URL(TEST_REDIS_URL);
    proxy = await new TcpProxy(redis.hostname, Number(redis.port || 6379)).start();
  });

  afterAll(async () => {
    memex?.child.kill('SIGKILL');
    await proxy.stop();
    await database.drop();
    await purgeQueuePrefix(prefix);
  });

  it('writes every line as JSON, what the Redis clients report included', async () => {
    // The test's Redis URL, database index and all, through the proxy.
    const redis = new URL(TEST_REDIS_URL);
    redis.host = `127.0.0.1:${proxy.port}`;
    const port = await freePort();
    memex = runEntry('apps/memex/src/main.js', {
      DATABASE_URL: database.url,
      REDIS_URL: redis.toString(),
      QUEUE_PREFIX: prefix,
      MEMEX_ADMIN_TOKEN: ADMIN_TOKEN,
      MEMEX_HOME: mkdtempSync(join(tmpdir(), 'memex-logs-')),
      PORT: String(port),
      LOG_FORMAT: 'json',
    });
    await waitForHttp(`http://127.0.0.1:${port}/health/ready`, 30_000);
    // The start-up banner is for a person, and is written once the server listens.
    const started = memex;
    await waitFor(() => started.stdout().includes('Memex is running'));
    await new Promise((r) => setTimeout(r, 500));
    const before = memex.stdout().length;

    proxy.cut();
    await new Promise((r) => setTimeout(r, 3000));
    const during = memex.stdout().slice(before);

    expect(memex.stderr()).toBe('');
    const lines = during.split('\n').filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(lines.some((line) => /ECONNRE(FUSED|SET)|Connection is closed|connection/i.test(line))).toBe(true);
  }, 60_000);
});
