import { Module } from '@nestjs/common';
import { EnqueueReconciler } from './enqueue-reconciler';
import { EnrichmentEnqueuer } from './enrichment-enqueuer';
import { IngestController } from './ingest.controller';
import { IngestMetrics } from './ingest.metrics';
import { IngestService } from './ingest.service';
import { SessionReadsController } from './session-reads.controller';
import { SessionTasksController } from './session-tasks.controller';

/** Sessions and raw events over HTTP: validate, store once, enqueue enrichment; and read them back. */
@Module({
  controllers: [IngestController, SessionReadsController, SessionTasksController],
  providers: [IngestService, IngestMetrics, EnrichmentEnqueuer, EnqueueReconciler],
  exports: [EnqueueReconciler],
})
export class EventsModule {}
