import { Module } from '@nestjs/common';
import { AdminHealthController } from './admin-health.controller';
import { AdminJobsController } from './admin-jobs.controller';
import { DashboardUi } from './dashboard-ui';
import { ProjectsController } from './projects.controller';
import { RedactionController } from './redaction.controller';
import { RedactionPassService } from './redaction-pass.service';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';
import { QueueBoard } from '@memex/server';

/** What operators run the service with: projects, jobs and queues, usage, redaction passes, the dashboard. */
@Module({
  controllers: [ProjectsController, AdminJobsController, UsageController, AdminHealthController, RedactionController],
  providers: [QueueBoard, DashboardUi, UsageService, RedactionPassService],
})
export class OperationsModule {}
