import { Worker } from 'bullmq';
import IORedis from 'ioredis';
import { InProcessQueue, QUEUES, type QueueJob } from '@memex/queue';
import { TEST_REDIS_URL } from './test-app';
import type { TestAppContext } from './use-test-app';

/**
 * A worker of a test app's enrichment queue run by the test itself (the app consumes none):
 * a BullMQ worker on Redis in server mode, the queue in process in embedded mode. `close()`
 * stops it and leaves the queue open.
 */
export function startQueueWorker(
  ctx: TestAppContext,
  processor: (job: QueueJob) => Promise<unknown>,
): { close(): Promise<unknown> } {
  const queue = ctx.queue.queue as unknown;
  if (queue instanceof InProcessQueue) {
    queue.process(processor, 1);
    return { close: () => queue.stop() };
  }
  const connection = new IORedis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const worker = new Worker(QUEUES.enrichment, processor, { connection, prefix: ctx.server.config.QUEUE_PREFIX });
  return { close: () => worker.close().finally(() => connection.disconnect()) };
}
