import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { JobsOptions, Queue } from 'bullmq';
import type { Config } from '@memex/config';
import { JOBS, QUEUES } from '@memex/queue';
import { CONFIG, TtlCache } from '@memex/server';
import { IngestMetrics } from './ingest.metrics';

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
    @InjectQueue(QUEUES.enrichment) private readonly queue: Queue,
    @Inject(CONFIG) private readonly config: Config,
    private readonly metrics: IngestMetrics,
  ) {
    this.recent = new TtlCache(Math.max(1, config.ENRICHMENT_DEBOUNCE_MS), 50_000);
  }

  /**
   * After a batch: the job waits out the debounce window, and every batch of the session
   * arriving within it is absorbed by BullMQ's deduplication instead of adding a job.
   */
  async afterBatch(ref: SessionRef): Promise<boolean> {
    const debounce = this.config.ENRICHMENT_DEBOUNCE_MS;
    if (debounce === 0) return this.add(ref, {});
    if (this.recent.get(ref.sessionId)) return true;
    const added = await this.add(ref, {
      delay: debounce,
      deduplication: { id: `enrich-${ref.sessionId}`, ttl: debounce },
    });
    if (added) this.recent.set(ref.sessionId, true);
    return added;
  }

  /**
   * At once, identified by the session's newest event: asking twice for the same state of a
   * session is one job, while a session that has moved on gets a new one.
   */
  now(ref: SessionRef, lastEventSeq: number, reason: 'complete' | 'reconcile'): Promise<boolean> {
    return this.add(ref, { jobId: `${reason}-${ref.sessionId}-${lastEventSeq}` });
  }

  private async add(ref: SessionRef, options: JobsOptions): Promise<boolean> {
    const job = JOBS.enrichSession;
    const payload = job.schema.parse({ projectId: ref.projectId, sessionId: ref.sessionId });
    try {
      await this.queue.add(job.name, payload, { ...job.options, ...options });
      return true;
    } catch (error) {
      this.metrics.enqueueFailures.inc();
      this.logger.warn(
        { sessionId: ref.sessionId, err: (error as Error).message },
        'enrichment enqueue failed; the reconciler will retry',
      );
      return false;
    }
  }
}
