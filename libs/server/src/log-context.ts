import { AsyncLocalStorage } from 'node:async_hooks';

export interface JobLogFields {
  jobId: string;
  queue: string;
  job: string;
}

/**
 * The job a worker is running, for every log line written while it runs (pino's mixin reads
 * it), so a job's lines can be found by its id without each handler passing it along.
 */
export const jobLogContext = new AsyncLocalStorage<JobLogFields>();

export function jobLogFields(): Partial<JobLogFields> {
  return jobLogContext.getStore() ?? {};
}
