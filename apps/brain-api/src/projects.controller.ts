import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ProjectRepository } from '@memex/db';
import { createProjectBodySchema, type CreateProjectBody, type CreatedProject } from '@memex/domain';
import { AdminTokenGuard, ZodPipe } from '@memex/server';

@Controller('api/v2/projects')
@UseGuards(AdminTokenGuard)
export class ProjectsController {
  constructor(private readonly projects: ProjectRepository) {}

  /** Operators create projects; the key in the answer is shown this once. */
  @Post()
  @HttpCode(201)
  async create(@Body(new ZodPipe(createProjectBodySchema)) body: CreateProjectBody): Promise<CreatedProject> {
    const { projectId, apiKey } = await this.projects.createWithKey(body.name);
    return { projectId, apiKey };
  }
}
