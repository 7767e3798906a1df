import { Module } from '@nestjs/common';
import { EventsModule } from '@memex/feature-events';

/** The ingest hot path alone: sessions and raw events. */
@Module({ imports: [EventsModule] })
export class IngestApiModule {}
