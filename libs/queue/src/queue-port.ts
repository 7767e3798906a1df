import type { JobsOptions } from 'bullmq';

export { DelayedError, UnrecoverableError } from 'bullmq';

/** States a job can be counted or listed in (BullMQ's names). */
export type JobState = 'waiting' | 'active' | 'delayed' | 'failed' | 'completed' | 'paused' | 'prioritized';

/**
 * A job as a handler and an operator see it: what BullMQ's `Job` offers and Memex uses, so
 * the queue in process (embedded mode) and BullMQ (server mode) are one port.
 */
export interface QueueJob {
  id?: string;
  name: string;
  data: unknown;
  queueName: string;
  /** Attempts that failed so far. */
  attemptsMade: number;
  opts: JobsOptions;
  failedReason?: string;
  returnvalue: unknown;
  timestamp: number;
  finishedOn?: number;
  getState(): Promise<string>;
  retry(state?: 'failed' | 'completed'): Promise<void>;
  updateData(data: unknown): Promise<void>;
  /** Drops a job that is not running. */
  remove(): Promise<void>;
  /** Puts the running job back as delayed until `timestamp`; the handler then throws DelayedError. */
  moveToDelayed(timestamp: number, token?: string): Promise<void>;
}

/** A queue: what BullMQ's `Queue` offers and Memex uses. */
export interface QueuePort {
  readonly name: string;
  add(name: string, data: unknown, opts?: JobsOptions): Promise<unknown>;
  addBulk(jobs: Array<{ name: string; data: unknown; opts?: JobsOptions }>): Promise<unknown>;
  upsertJobScheduler(
    id: string,
    repeat: { every: number },
    template: { name?: string; data?: unknown; opts?: JobsOptions },
  ): Promise<unknown>;
  removeJobScheduler(id: string): Promise<unknown>;
  getJobScheduler(id: string): Promise<unknown>;
  getJob(id: string): Promise<QueueJob | undefined>;
  getJobs(states: JobState[], start?: number, end?: number): Promise<QueueJob[]>;
  getJobCounts(...states: JobState[]): Promise<Record<string, number>>;
}
