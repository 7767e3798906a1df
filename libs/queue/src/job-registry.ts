import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import { HYGIENE_MODES, ulidSchema } from '@memex/domain';

export const QUEUES = {
  enrichment: 'enrichment',
  hygiene: 'hygiene',
  embedding: 'embedding',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Redis must not grow without end: finished jobs are kept for inspection, then dropped. */
const RETENTION: Pick<JobsOptions, 'removeOnComplete' | 'removeOnFail'> = {
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
};

export interface JobDefinition<S extends z.ZodType> {
  queue: QueueName;
  name: string;
  /** Validated when enqueued and again by the worker before it runs. */
  schema: S;
  options: JobsOptions;
}

function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

export const JOBS = {
  /** Enrich a session's events past its cursor. Carries ids only: the events stay in Postgres. */
  enrichSession: defineJob({
    queue: QUEUES.enrichment,
    name: 'enrich-session',
    schema: z.strictObject({ projectId: ulidSchema, sessionId: ulidSchema }),
    options: { attempts: 5, backoff: { type: 'exponential', delay: 2000 }, ...RETENTION },
  }),
  /**
   * Fired by the job scheduler on the hygiene cadence: enqueues one `hygienePass` per project.
   * One attempt: the next tick is the retry.
   */
  hygieneSweep: defineJob({
    queue: QUEUES.hygiene,
    name: 'hygiene-sweep',
    schema: z.strictObject({}),
    options: { attempts: 1, ...RETENTION },
  }),
  /**
   * One hygiene pass over a project. An operator's run carries the id of the run row it
   * created; a scheduled pass creates its row when it starts.
   */
  hygienePass: defineJob({
    queue: QUEUES.hygiene,
    name: 'hygiene-pass',
    schema: z.strictObject({
      projectId: ulidSchema,
      mode: z.enum(HYGIENE_MODES),
      trigger: z.enum(['operator', 'schedule']),
      runId: ulidSchema.optional(),
    }),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 5000 }, ...RETENTION },
  }),
  /**
   * Brings a project's embeddings up to its items: embeds new and changed text, passes status
   * and type changes to the vector store. Queued by the embedding poller, one per project at a time.
   */
  syncEmbeddings: defineJob({
    queue: QUEUES.embedding,
    name: 'sync-embeddings',
    schema: z.strictObject({ projectId: ulidSchema }),
    options: { attempts: 5, backoff: { type: 'exponential', delay: 2000 }, ...RETENTION },
  }),
} as const;

export type JobKey = keyof typeof JOBS;
export type JobPayload<K extends JobKey> = z.infer<(typeof JOBS)[K]['schema']>;

/**
 * The job of an operator's hygiene run, under an id of its own: adding it again (the sweep
 * bringing back a lost run) is a no-op while BullMQ still holds it.
 */
export function operatorPassJob(run: { id: string; projectId: string; mode: JobPayload<'hygienePass'>['mode'] }) {
  const { name, options, schema } = JOBS.hygienePass;
  return {
    name,
    data: schema.parse({ projectId: run.projectId, mode: run.mode, trigger: 'operator', runId: run.id }),
    opts: { ...options, jobId: `run-${run.id}` },
  };
}

/**
 * Every job of the given queues must have exactly one handler: a worker refuses to start
 * otherwise, rather than leaving jobs to pile up unprocessed or run twice.
 */
export function assertHandlers(
  queues: readonly QueueName[],
  handlers: ReadonlyArray<{ queue: string; name: string }>,
): void {
  const problems: string[] = [];
  for (const job of Object.values(JOBS)) {
    if (!queues.includes(job.queue)) continue;
    const count = handlers.filter((h) => h.queue === job.queue && h.name === job.name).length;
    if (count !== 1) problems.push(`job ${job.queue}/${job.name} has ${count} handlers, expected exactly 1`);
  }
  for (const handler of handlers) {
    const known = Object.values(JOBS).some((j) => j.queue === handler.queue && j.name === handler.name);
    if (!known) problems.push(`handler for unknown job ${handler.queue}/${handler.name}`);
  }
  if (problems.length > 0) throw new Error(`Job registry check failed:\n  - ${problems.join('\n  - ')}`);
}
