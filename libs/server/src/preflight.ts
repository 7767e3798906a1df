import IORedis from 'ioredis';
import { redactUrl, type Config } from '@memex/config';
import { standaloneClient } from '@memex/db';

export class DependencyUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DependencyUnavailableError';
  }
}

function reason(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e.code ?? e.message ?? String(error);
}

/**
 * Checks that the server behind DATABASE_URL answers (through its `postgres` database,
 * since ours may not exist yet) and that Redis answers. Fails with one line naming the
 * URL and how to start the missing service.
 */
export async function checkDependencies(config: Config): Promise<void> {
  const admin = new URL(config.DATABASE_URL);
  admin.pathname = '/postgres';
  const pg = standaloneClient({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  try {
    await pg.connect();
    await pg.query('select 1');
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '28P01' || code === '28000') {
      throw new DependencyUnavailableError(
        `PostgreSQL at ${redactUrl(config.DATABASE_URL)} refused the login (${code}): check the user and password in DATABASE_URL`,
      );
    }
    throw new DependencyUnavailableError(
      `cannot reach PostgreSQL at ${redactUrl(config.DATABASE_URL)} (${reason(error)}): start it with ` +
        `"pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start", or "docker compose up -d postgres" and point DATABASE_URL at it`,
    );
  } finally {
    await pg.end().catch(() => undefined);
  }

  const redis = new IORedis(config.REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new DependencyUnavailableError(
      `cannot reach Redis at ${redactUrl(config.REDIS_URL)} (${reason(error)}): start it with ` +
        `"redis-server --daemonize yes --bind 127.0.0.1 --port 6379" or "docker compose up -d redis", or set REDIS_URL`,
    );
  } finally {
    redis.disconnect();
  }
}
