import { Injectable, Logger } from '@nestjs/common';
import type { Config } from '@memex/config';
import { DelayedError, type JobPayload, type QueueJob } from '@memex/queue';
import type { JobHandler } from '@memex/server';
import { EnrichmentService, type EnrichmentReport } from './enrichment.service';

/** While another run holds the session, a job waits this long and tries again. */
const BUSY_DELAY_MS = 2000;

@Injectable()
export class EnrichSessionHandler implements JobHandler<'enrichSession'> {
  readonly job = 'enrichSession' as const;
  private readonly logger = new Logger(EnrichSessionHandler.name);

  constructor(private readonly enrichment: EnrichmentService) {}

  concurrency(config: Config): number {
    return config.ENRICHMENT_CONCURRENCY;
  }

  /** The report becomes the job's return value: what it did, what it rejected, what it cost. */
  async handle(payload: JobPayload<'enrichSession'>, job: QueueJob, token?: string): Promise<EnrichmentReport> {
    const report = await this.enrichment.enrichSession(payload.projectId, payload.sessionId, `job:${job.id}`);
    if (report.busy) {
      // Not a failure: the run holding the session may stop before this job's events arrived,
      // so this job comes back rather than ending, and spends no attempt doing so.
      await job.moveToDelayed(Date.now() + BUSY_DELAY_MS, token);
      throw new DelayedError();
    }
    this.logger.log({ jobId: job.id, sessionId: payload.sessionId, ...report }, 'session enriched');
    return report;
  }
}
