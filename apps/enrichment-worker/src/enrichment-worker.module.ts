import { Module } from '@nestjs/common';
import { QUEUES } from '@memex/queue';
import { queueWorkerProviders } from '@memex/server';
import { EnrichSessionHandler } from './enrich-session.handler';
import { EnrichmentMetrics } from './enrichment.metrics';
import { EnrichmentService } from './enrichment.service';

/** Turns a session's raw events into verified, deduplicated memory items. */
@Module({
  providers: [
    EnrichmentService,
    EnrichmentMetrics,
    ...queueWorkerProviders([QUEUES.enrichment], [EnrichSessionHandler]),
  ],
  exports: [EnrichmentService],
})
export class EnrichmentWorkerModule {}
