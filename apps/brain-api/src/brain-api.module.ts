import { Module } from '@nestjs/common';
import { BrainModule } from '@memex/feature-brain';
import { HygieneReviewModule } from '@memex/feature-hygiene';
import { ItemsModule } from '@memex/feature-items';
import { McpModule } from '@memex/feature-mcp';
import { OperationsModule } from '@memex/feature-operations';
import { SearchModule } from '@memex/feature-search';

/** Everything but the ingest hot path and the workers. */
@Module({ imports: [BrainModule, ItemsModule, SearchModule, McpModule, HygieneReviewModule, OperationsModule] })
export class BrainApiModule {}
