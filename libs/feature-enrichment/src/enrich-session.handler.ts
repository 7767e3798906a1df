import { Injectable, Logger } from '@nestjs/common';
import type { Config } from '@memex/config';
import type { JobPayload, QueueJob } from '@memex/queue';
import type { JobHandler } from '@memex/server';
import { EnrichmentService, type EnrichmentReport } from './enrichment.service';

@Injectable()
export class EnrichSessionHandler implements JobHandler<'enrichSession'> {
  readonly job = 'enrichSession' as const;
  private readonly logger = new Logger(EnrichSessionHandler.name);

  constructor(private readonly enrichment: EnrichmentService) {}

  concurrency(config: Config): number {
    return config.ENRICHMENT_CONCURRENCY;
  }

  /** The report becomes the job's return value: what it did, what it rejected, what it cost. */
  async handle(payload: JobPayload<'enrichSession'>, job: QueueJob): Promise<EnrichmentReport> {
    const report = await this.enrichment.enrichSession(payload.projectId, payload.sessionId, `job:${job.id}`);
    this.logger.log({ jobId: job.id, sessionId: payload.sessionId, ...report }, 'session enriched');
    return report;
  }
}
