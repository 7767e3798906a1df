import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ProjectRepository } from '@memex/db';
import {
  createProjectBodySchema,
  listProjectsQuerySchema,
  type CreateProjectBody,
  type CreatedProject,
  type ListProjectsQuery,
} from '@memex/domain';
import { AdminTokenGuard, OPERATOR_SCOPE, RedactionService, ZodPipe } from '@memex/server';

@Controller('api/v2/projects')
@UseGuards(AdminTokenGuard)
export class ProjectsController {
  constructor(
    private readonly projects: ProjectRepository,
    private readonly redaction: RedactionService,
  ) {}

  /** Operators create projects; the key in the answer is shown this once. */
  @Post()
  @HttpCode(201)
  async create(@Body(new ZodPipe(createProjectBodySchema)) body: CreateProjectBody): Promise<CreatedProject> {
    const { projectId, apiKey } = await this.projects.createWithKey(
      await this.redaction.text(OPERATOR_SCOPE, body.name),
    );
    return { projectId, apiKey };
  }

  /** Every project with its item and session counts: the dashboard's project picker. */
  @Get()
  list(@Query(new ZodPipe(listProjectsQuerySchema)) query: ListProjectsQuery) {
    return this.projects.listWithCounts(query.cursor, query.limit);
  }
}
