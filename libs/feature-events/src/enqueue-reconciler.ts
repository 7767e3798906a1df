import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Config } from '@memex/config';
import { SessionRepository } from '@memex/db';
import { CONFIG, IntervalTask } from '@memex/server';
import { EnrichmentEnqueuer } from './enrichment-enqueuer';
import { IngestMetrics } from './ingest.metrics';

const PAGE = 500;

/**
 * Postgres is the source of truth: any session whose newest event is past its enrichment
 * cursor, and has been quiet for a grace period, gets an enrichment job again. This makes
 * good an enqueue lost while Redis was down.
 */
@Injectable()
export class EnqueueReconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EnqueueReconciler.name);
  private readonly task = new IntervalTask(
    (now?: Date) => this.pass(now ?? new Date()),
    this.logger,
    'reconciler pass failed; trying again next interval',
  );

  constructor(
    private readonly sessions: SessionRepository,
    private readonly enqueuer: EnrichmentEnqueuer,
    private readonly metrics: IngestMetrics,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.config.RECONCILE_INTERVAL_MS);
  }

  onApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** One pass; passes never overlap. Returns how many sessions were enqueued. */
  runOnce(now = new Date()): Promise<number> {
    return this.task.runOnce(now);
  }

  private async pass(now: Date): Promise<number> {
    const quietSince = new Date(now.getTime() - this.config.RECONCILE_GRACE_MS);
    let enqueued = 0;
    let after: { lastEventAt: Date; id: string } | undefined;
    // Page through every lagging session: a stuck few must not hide the rest.
    for (;;) {
      const page = await this.sessions.findLagging(quietSince, PAGE, after);
      for (const session of page) {
        const outcome = await this.enqueuer.now(
          { projectId: session.projectId, sessionId: session.id },
          session.lastEventSeq,
          'reconcile',
        );
        if (outcome === 'added') enqueued += 1;
      }
      if (page.length < PAGE) break;
      const last = page[page.length - 1]!;
      after = { lastEventAt: last.lastEventAt, id: last.id };
    }
    if (enqueued > 0) {
      this.metrics.reconciled.inc(enqueued);
      this.logger.log({ enqueued }, 'reconciler re-enqueued lagging sessions');
    }
    return enqueued;
  }
}
