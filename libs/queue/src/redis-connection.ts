import IORedis, { type RedisOptions } from 'ioredis';

/**
 * Producers on a request path fail fast while Redis is away (Postgres already holds the
 * data and the reconciler re-enqueues later); workers wait for Redis indefinitely, as
 * BullMQ requires of a blocking connection.
 */
export function createRedisConnection(url: string, role: 'producer' | 'worker', extra: RedisOptions = {}): IORedis {
  const options: RedisOptions =
    role === 'producer'
      ? // A Redis that stops answering (rather than refusing) must not hold a request: 2 s, then fail.
        { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 3000, commandTimeout: 2000 }
      : { maxRetriesPerRequest: null, enableOfflineQueue: true };
  return new IORedis(url, { ...options, retryStrategy: (times) => Math.min(times * 200, 2000), ...extra });
}

/** Deletes every key under a queue prefix: what a throwaway run (a test, a benchmark) leaves in Redis. */
export async function deleteQueuePrefix(url: string, prefix: string): Promise<void> {
  const redis = new IORedis(url, { maxRetriesPerRequest: 3 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
