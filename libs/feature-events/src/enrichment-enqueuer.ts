import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Config } from '@memex/config';
import { catchUpJobId, type CatchUpReason, type EnqueueOptions } from '@memex/queue';
import { CONFIG, JobQueue, TtlCache } from '@memex/server';
import { IngestMetrics } from './ingest.metrics';

/** added: a new job; pending: one is already waiting; failed: one failed for good (operators retry it); error: Redis said no. */
export type EnqueueOutcome = 'added' | 'pending' | 'failed' | 'error';

export interface SessionRef {
  projectId: string;
  sessionId: string;
}

/**
 * Puts enrichment jobs on the queue. Failures are counted and logged, never thrown: the
 * events are already committed in Postgres, and the reconciler enqueues what was missed.
 */
@Injectable()
export class EnrichmentEnqueuer {
  private readonly logger = new Logger(EnrichmentEnqueuer.name);
  /** Sessions this process enqueued within the debounce window: BullMQ would drop a repeat anyway. */
  private readonly recent: TtlCache<true>;

  constructor(
    private readonly jobs: JobQueue,
    @Inject(CONFIG) private readonly config: Config,
    private readonly metrics: IngestMetrics,
  ) {
    // Shorter than BullMQ's window, so this memory never outlives the Redis-side deduplication.
    this.recent = new TtlCache(Math.max(1, Math.floor(config.ENRICHMENT_DEBOUNCE_MS * 0.8)), 50_000);
  }

  /**
   * After a batch: the job waits out the window, and every batch of the session arriving
   * within it is absorbed by BullMQ's deduplication (across replicas) instead of adding a job.
   * This process also remembers its own recent adds, for a little less than the window, so
   * most repeats never reach Redis at all.
   */
  async afterBatch(ref: SessionRef): Promise<EnqueueOutcome> {
    const window = this.config.ENRICHMENT_DEBOUNCE_MS;
    if (window === 0) return this.add(ref, {});
    if (this.recent.get(ref.sessionId)) return 'pending';
    this.recent.set(ref.sessionId, true);
    const outcome = await this.add(ref, { delayMs: window, dedupe: { ttlMs: window } });
    if (outcome === 'error') this.recent.delete(ref.sessionId);
    return outcome;
  }

  /**
   * At once, identified by the session's newest event, so asking twice for the same state
   * of a session makes one job. A finished job with that id is replaced (its session still
   * lags, or we would not be asked); a job that failed for good is left for an operator to
   * retry, not retried here in a loop.
   */
  async now(ref: SessionRef, lastEventSeq: number, reason: CatchUpReason): Promise<EnqueueOutcome> {
    const jobId = catchUpJobId(reason, ref.sessionId, lastEventSeq);
    try {
      const existing = await this.jobs.find('enrichSession', jobId);
      if (existing) {
        const state = await existing.getState();
        if (state === 'failed') return 'failed';
        if (state !== 'completed') return 'pending';
        await existing.remove();
      }
    } catch (error) {
      return this.failed(ref, error);
    }
    return this.add(ref, { jobId });
  }

  private async add(ref: SessionRef, options: EnqueueOptions): Promise<EnqueueOutcome> {
    try {
      await this.jobs.enqueue('enrichSession', { projectId: ref.projectId, sessionId: ref.sessionId }, options);
      return 'added';
    } catch (error) {
      return this.failed(ref, error);
    }
  }

  private failed(ref: SessionRef, error: unknown): 'error' {
    this.metrics.enqueueFailures.inc();
    this.logger.warn(
      { sessionId: ref.sessionId, err: (error as Error).message },
      'enrichment enqueue failed; the reconciler will retry',
    );
    return 'error';
  }
}
