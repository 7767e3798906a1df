import type { Logger } from '@nestjs/common';
import type IORedis from 'ioredis';
import { redactUrl } from '@memex/config';

/**
 * Logs a connection's errors at most once every 10 s: without a listener ioredis prints every
 * failed reconnect, and with one that logs each, an outage floods the log.
 */
export function logConnectionErrors(redis: IORedis, logger: Logger, message: string, url: string): void {
  let lastWarned = 0;
  redis.on('error', (error: Error) => {
    if (Date.now() - lastWarned < 10_000) return;
    lastWarned = Date.now();
    logger.warn({ err: error.message, url: redactUrl(url) }, message);
  });
}
