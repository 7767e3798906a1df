import { Module } from '@nestjs/common';
import { AdminHealthController } from './admin-health.controller';
import { AdminJobsController } from './admin-jobs.controller';
import { BrainController } from './brain.controller';
import { BrainService } from './brain.service';
import { DashboardUi } from './dashboard-ui';
import { HygieneController } from './hygiene.controller';
import { HygieneReviewService } from './hygiene-review.service';
import { ItemCurationService } from './item-curation.service';
import { ManualItemService } from './manual-items.service';
import { McpController } from './mcp/mcp.controller';
import { ProjectMemoryFactory } from './mcp/project-memory';
import { MemoryItemsController } from './memory-items.controller';
import { ProjectsController } from './projects.controller';
import { RememberController } from './remember.controller';
import { QueueBoard } from './queue-board';
import { RedactionController } from './redaction.controller';
import { RedactionPassService } from './redaction-pass.service';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';
import { RetrievalModule } from '@memex/retrieval';
import { RevalidationHook } from './revalidation.hook';
import { RevisionCache } from './revision-cache';

/**
 * Everything but the ingest hot path: the brain, memory items, search, MCP, hygiene review,
 * projects, redaction passes, the operator endpoints (jobs, queue board) and the dashboard.
 */
@Module({
  imports: [RetrievalModule],
  controllers: [
    BrainController,
    MemoryItemsController,
    RememberController,
    HygieneController,
    SearchController,
    McpController,
    ProjectsController,
    AdminJobsController,
    UsageController,
    AdminHealthController,
    RedactionController,
  ],
  providers: [
    BrainService,
    RevalidationHook,
    RevisionCache,
    HygieneReviewService,
    QueueBoard,
    DashboardUi,
    SearchService,
    ManualItemService,
    ItemCurationService,
    ProjectMemoryFactory,
    UsageService,
    RedactionPassService,
  ],
  exports: [BrainService],
})
export class BrainApiModule {}
