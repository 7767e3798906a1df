import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { loadConfig, type Config } from '@memex/config';
import { QUEUES, deleteQueuePrefix, type QueueName } from '@memex/queue';
import { ALL_QUEUES, createHttpApp, rootModule, type AllQueues } from '@memex/server';
import { uniqueName, type TestDatabase } from './test-database';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestApp {
  app: NestFastifyApplication;
  config: Config;
  url: string;
  close(): Promise<void>;
}

/** What points an app at a test database: its URL in server mode, its home in embedded mode. */
export function databaseEnv(database: TestDatabase): Record<string, string> {
  return database.home ? { MEMEX_MODE: 'embedded', MEMEX_HOME: database.home } : { DATABASE_URL: database.url };
}

/**
 * Boots feature modules on the real Postgres and Redis (or, in embedded mode, on the test
 * database's PGlite with queues in process), on an ephemeral port, with a queue prefix of its
 * own so test files never see each other's jobs.
 */
export async function startTestApp(features: Type[], env: Record<string, string | undefined>): Promise<TestApp> {
  const config = loadConfig({
    MEMEX_MODE: 'server',
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: uniqueName('memex_test'),
    LOG_LEVEL: 'silent',
    MEMEX_ADMIN_TOKEN: ADMIN_TOKEN,
    HOST: '127.0.0.1',
    PORT: '0',
    RECONCILE_INTERVAL_MS: '3600000',
    // Test files run in parallel and share one PostgreSQL: small pools stay well under max_connections.
    DB_POOL_SIZE: '4',
    // Tests send bad keys on purpose from 127.0.0.1; auth-rate-limit.spec turns limiting back on.
    AUTH_RATE_LIMIT_EXEMPT_LOOPBACK: 'true',
    ...env,
  });
  const app = await createHttpApp(rootModule(config, features), config);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    config,
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await app.close();
      if (config.MEMEX_MODE === 'server') await purgeQueuePrefix(config.QUEUE_PREFIX);
    },
  };
}

/** Deletes every key under a test's queue prefix, so test runs leave nothing in Redis. */
export function purgeQueuePrefix(prefix: string): Promise<void> {
  return deleteQueuePrefix(TEST_REDIS_URL, prefix);
}

/**
 * Read access to a test app's queue: straight from Redis, or in embedded mode the app's own
 * queue in process, which has what the tests use of BullMQ's Queue (the port, and `drain`,
 * `obliterate` and `getJobSchedulers`).
 */
export async function openQueue(
  server: TestApp,
  name: QueueName = QUEUES.enrichment,
): Promise<{ queue: Queue; close(): Promise<void> }> {
  if (server.config.MEMEX_MODE === 'embedded') {
    const queue = server.app.get<AllQueues>(ALL_QUEUES)[name] as unknown as Queue;
    return { queue, close: async () => undefined };
  }
  const config = server.config;
  const connection = new IORedis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue(name, { connection, prefix: config.QUEUE_PREFIX });
  return {
    queue,
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}
