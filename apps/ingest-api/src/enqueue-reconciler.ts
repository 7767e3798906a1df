import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Config } from '@memex/config';
import { SessionRepository } from '@memex/db';
import { CONFIG } from '@memex/server';
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
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly sessions: SessionRepository,
    private readonly enqueuer: EnrichmentEnqueuer,
    private readonly metrics: IngestMetrics,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.runOnce().catch((error: unknown) =>
        this.logger.warn({ err: (error as Error).message }, 'reconciler pass failed; trying again next interval'),
      );
    }, this.config.RECONCILE_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One pass; passes never overlap. Returns how many sessions were enqueued. */
  runOnce(now = new Date()): Promise<number> {
    this.running ??= this.pass(now).finally(() => {
      this.running = undefined;
    });
    return this.running;
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
