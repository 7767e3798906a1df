import { Module } from '@nestjs/common';
import { QUEUES } from '@memex/queue';
import { queueWorkerProviders } from '@memex/server';
import { RetrievalModule } from '@memex/retrieval';
import { EmbeddingPoller } from './embeddings/embedding-poller';
import { EmbeddingSyncService } from './embeddings/embedding-sync.service';
import { SyncEmbeddingsHandler } from './embeddings/sync-embeddings.handler';
import { EnrichSessionHandler } from './enrich-session.handler';
import { EnrichmentMetrics } from './enrichment.metrics';
import { EnrichmentService } from './enrichment.service';
import { EntityCatchUp } from './entity-catch-up';
import { EntityRecorder } from './entity-recorder';
import { WindowWriter } from './window-writer';
import { ModelReader } from './model-reader';

/** Turns a session's raw events into verified, deduplicated memory items, and keeps their embeddings current. */
@Module({
  imports: [RetrievalModule],
  providers: [
    EnrichmentService,
    EntityRecorder,
    EntityCatchUp,
    WindowWriter,
    ModelReader,
    EnrichmentMetrics,
    EmbeddingSyncService,
    EmbeddingPoller,
    ...queueWorkerProviders([QUEUES.enrichment, QUEUES.embedding], [EnrichSessionHandler, SyncEmbeddingsHandler]),
  ],
  exports: [EnrichmentService, WindowWriter],
})
export class EnrichmentModule {}
