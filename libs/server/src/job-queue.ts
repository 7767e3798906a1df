import { Inject, Injectable } from '@nestjs/common';
import { JOBS, jobRequest, type EnqueueOptions, type JobKey, type JobPayload, type QueueJob } from '@memex/queue';
import { ALL_QUEUES, type AllQueues } from './queue-tokens';

/**
 * The one way work is put on a queue: by the registry's job name, with a typed payload. The
 * queue, the options and the ids come from the registry (`jobRequest`), never from the caller.
 */
@Injectable()
export class JobQueue {
  constructor(@Inject(ALL_QUEUES) private readonly queues: AllQueues) {}

  async enqueue<K extends JobKey>(key: K, payload: JobPayload<K>, options?: EnqueueOptions): Promise<void> {
    const job = jobRequest(key, payload, options);
    await this.queues[job.queue].add(job.name, job.data, job.opts);
  }

  /** Several jobs of one kind in one round trip. */
  async enqueueMany<K extends JobKey>(
    key: K,
    payloads: ReadonlyArray<JobPayload<K>>,
    options?: EnqueueOptions,
  ): Promise<void> {
    if (payloads.length === 0) return;
    const jobs = payloads.map((p) => jobRequest(key, p, options));
    await this.queues[JOBS[key].queue].addBulk(jobs.map(({ name, data, opts }) => ({ name, data, opts })));
  }

  /**
   * A job of this kind every `everyMs`, under a scheduler id (one schedule however many
   * processes make it). Its payload is checked like an enqueued one.
   */
  async schedule<K extends JobKey>(
    key: K,
    schedulerId: string,
    everyMs: number,
    payload: JobPayload<K>,
  ): Promise<void> {
    const job = jobRequest(key, payload);
    await this.queues[job.queue].upsertJobScheduler(
      schedulerId,
      { every: everyMs },
      { name: job.name, data: job.data, opts: job.opts },
    );
  }

  async unschedule(key: JobKey, schedulerId: string): Promise<void> {
    await this.queues[JOBS[key].queue].removeJobScheduler(schedulerId);
  }

  async isScheduled(key: JobKey, schedulerId: string): Promise<boolean> {
    return (await this.queues[JOBS[key].queue].getJobScheduler(schedulerId)) !== undefined;
  }

  /** A job of this kind by its id, if the queue still holds it. */
  async find<K extends JobKey>(key: K, jobId: string): Promise<QueueJob | undefined> {
    return (await this.queues[JOBS[key].queue].getJob(jobId)) ?? undefined;
  }
}
