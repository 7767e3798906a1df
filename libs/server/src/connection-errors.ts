import type { Logger } from '@nestjs/common';
import type IORedis from 'ioredis';
import { redactUrl } from '@memex/config';

/**
 * A warning logged at most once every 10 s: in an outage every failed reconnect and every
 * broken connection of a pool reports itself, and a line each would flood the log.
 */
export function throttledWarning(logger: Logger, message: string, url?: string): (error: Error) => void {
  let lastWarned = 0;
  return (error: Error) => {
    if (Date.now() - lastWarned < 10_000) return;
    lastWarned = Date.now();
    logger.warn({ err: error.message, ...(url ? { url: redactUrl(url) } : {}) }, message);
  };
}

/** Without a listener ioredis prints every failed reconnect; with this one, a line now and then. */
export function logConnectionErrors(redis: IORedis, logger: Logger, message: string, url: string): void {
  redis.on('error', throttledWarning(logger, message, url));
}
