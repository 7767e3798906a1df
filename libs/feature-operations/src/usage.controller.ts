import { Get, Query } from '@nestjs/common';
import { usageQuerySchema, type UsageQuery } from '@memex/domain';
import { ProjectId, ProjectScopedController, ZodPipe } from '@memex/server';
import { UsageService } from './usage.service';

/** Model spend a person can see and bound, and the state of the project's memory. */
@ProjectScopedController()
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get('usage')
  view(@ProjectId() projectId: string, @Query(new ZodPipe(usageQuerySchema)) query: UsageQuery) {
    return this.usage.view(projectId, query.days);
  }

  @Get('status')
  status(@ProjectId() projectId: string, @Query(new ZodPipe(usageQuerySchema.pick({}))) _query: object) {
    return this.usage.projectStatus(projectId);
  }
}
