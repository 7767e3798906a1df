import { Module } from '@nestjs/common';
import { EnqueueReconciler } from './enqueue-reconciler';
import { EnrichmentEnqueuer } from './enrichment-enqueuer';
import { IngestController } from './ingest.controller';
import { IngestMetrics } from './ingest.metrics';
import { IngestService } from './ingest.service';

/** Sessions and raw events over HTTP: validate, store once, enqueue enrichment. */
@Module({
  controllers: [IngestController],
  providers: [IngestService, IngestMetrics, EnrichmentEnqueuer, EnqueueReconciler],
  exports: [EnqueueReconciler],
})
export class IngestApiModule {}
