import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  createProjectBodySchema,
  eventBatchSchema,
  isBatchSizeIssue,
  sessionParamsSchema,
  type AcceptedBatch,
  type CreateProjectBody,
  type CreatedProject,
  type EventBatch,
} from '@memex/domain';
import { AdminTokenGuard, ProjectId, ProjectKeyGuard, ZodPipe } from '@memex/server';
import { IngestService } from './ingest.service';

@Controller('api/v2')
export class IngestController {
  constructor(private readonly ingest: IngestService) {}

  /** Operators create projects; the key in the answer is shown this once. */
  @Post('projects')
  @HttpCode(201)
  @UseGuards(AdminTokenGuard)
  createProject(@Body(new ZodPipe(createProjectBodySchema)) body: CreateProjectBody): Promise<CreatedProject> {
    return this.ingest.createProject(body.name);
  }

  @Post('events')
  @HttpCode(202)
  @UseGuards(ProjectKeyGuard)
  postEvents(
    @ProjectId() projectId: string,
    @Body(new ZodPipe(eventBatchSchema, isBatchSizeIssue)) batch: EventBatch,
  ): Promise<AcceptedBatch> {
    return this.ingest.ingest(projectId, batch);
  }

  @Post('sessions/:sessionId/complete')
  @HttpCode(202)
  @UseGuards(ProjectKeyGuard)
  completeSession(
    @ProjectId() projectId: string,
    @Param(new ZodPipe(sessionParamsSchema)) params: { sessionId: string },
  ): Promise<{ sessionId: string; enqueued: boolean }> {
    return this.ingest.complete(projectId, params.sessionId);
  }
}
