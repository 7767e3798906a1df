import { Module } from '@nestjs/common';
import { EnqueueReconciler } from './enqueue-reconciler';
import { EnrichmentEnqueuer } from './enrichment-enqueuer';
import { AdminJobsController } from './admin-jobs.controller';
import { IngestController } from './ingest.controller';
import { IngestMetrics } from './ingest.metrics';
import { IngestService } from './ingest.service';

/** Sessions and raw events over HTTP: validate, store once, enqueue enrichment. */
@Module({
  controllers: [IngestController, AdminJobsController],
  providers: [IngestService, IngestMetrics, EnrichmentEnqueuer, EnqueueReconciler],
  exports: [EnqueueReconciler],
})
export class IngestApiModule {}
