import { Module } from '@nestjs/common';
import { EnrichmentModule } from '@memex/feature-enrichment';

/** The enrichment worker: its only HTTP endpoints are health and metrics. */
@Module({ imports: [EnrichmentModule] })
export class EnrichmentWorkerModule {}
