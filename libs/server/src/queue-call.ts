import { DomainError } from '@memex/domain';
import { withDeadline } from './deadline';

/** How long an operator endpoint waits on Redis before it answers 503. */
export const QUEUE_DEADLINE_MS = 2000;

/**
 * A call to the job queues that an operator endpoint needs (counts, job lists, a retry): its
 * answer, or 503 QUEUE_UNAVAILABLE (with Retry-After, from the exception filter) when Redis
 * fails or does not answer within QUEUE_DEADLINE_MS. Every admin route on Redis goes through
 * this one rule, so none answers 500 while Redis is away, and none hangs on a silent one.
 */
export async function queueCall<T>(call: () => Promise<T>, failure = 'the job queues cannot be read'): Promise<T> {
  try {
    return await withDeadline(call(), QUEUE_DEADLINE_MS);
  } catch (error) {
    throw new DomainError('QUEUE_UNAVAILABLE', `${failure}; try again shortly`, {
      cause: error instanceof Error ? error.message : String(error),
    });
  }
}
