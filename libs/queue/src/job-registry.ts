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
  /**
   * The one piece of work a payload names: while a job with this id waits (or, with a time to
   * live, for that long), adding another is a no-op. Used when the enqueuer asks to deduplicate.
   */
  dedupId?: (payload: z.infer<S>) => string;
  /** A job id of its own, so adding the same work again is a no-op while BullMQ still holds it. */
  jobId?: (payload: z.infer<S>) => string | undefined;
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
    dedupId: (p) => `enrich-${p.sessionId}`,
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
    // A scheduled pass of a project waits once; an operator's run is its own job (the sweep
    // bringing back a lost run adds nothing while BullMQ still holds it).
    dedupId: (p) => `hygiene-scheduled:${p.projectId}`,
    jobId: (p) => (p.runId ? `run-${p.runId}` : undefined),
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
    dedupId: (p) => `embed:${p.projectId}`,
  }),
} as const;

export type JobKey = keyof typeof JOBS;
export type JobPayload<K extends JobKey> = z.infer<(typeof JOBS)[K]['schema']>;

/** How a caller wants a job added, beyond what the registry says of it. */
export interface EnqueueOptions {
  delayMs?: number;
  /** Deduplicate by the job's `dedupId`: while one waits, or for `ttlMs` when given. */
  dedupe?: { ttlMs?: number };
  /** An id the caller names the work by (overrides the job's own `jobId`). */
  jobId?: string;
}

export interface JobRequest {
  queue: QueueName;
  name: string;
  data: unknown;
  opts: JobsOptions;
}

/**
 * A job as BullMQ takes it: the payload checked against its schema, the registry's options,
 * and its ids as the registry defines them. The one place a job is built.
 */
export function jobRequest<K extends JobKey>(key: K, payload: JobPayload<K>, options: EnqueueOptions = {}): JobRequest {
  // Each entry's functions take its own payload; K ties the payload to the entry.
  const job = JOBS[key] as unknown as JobDefinition<z.ZodType<JobPayload<K>>>;
  const data = job.schema.parse(payload);
  const jobId = options.jobId ?? job.jobId?.(data);
  const opts: JobsOptions = { ...job.options };
  if (options.delayMs) opts.delay = options.delayMs;
  if (jobId) opts.jobId = jobId;
  else if (options.dedupe && job.dedupId) {
    opts.deduplication = { id: job.dedupId(data), ...(options.dedupe.ttlMs ? { ttl: options.dedupe.ttlMs } : {}) };
  }
  return { queue: job.queue, name: job.name, data, opts };
}

/**
 * Why a session's enrichment is asked for at once: completed at a turn's end, ended (its own id,
 * so an end that follows a Stop at the same event is not taken for the Stop's job still
 * running, which read the session before it ended), or found lagging.
 */
export type CatchUpReason = 'complete' | 'end' | 'reconcile';

/**
 * The id of an enrichment job asked for at once (a session completed, or found lagging by
 * the reconciler), by the session's newest event: asking twice for one state makes one job.
 */
export function catchUpJobId(reason: CatchUpReason, sessionId: string, lastEventSeq: number): string {
  return `${reason}-${sessionId}-${lastEventSeq}`;
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
