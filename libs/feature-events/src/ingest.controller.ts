import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  completeSessionBodySchema,
  eventBatchSchema,
  isBatchSizeIssue,
  sessionParamsSchema,
  type AcceptedBatch,
  type CompleteSessionBody,
  type EventBatch,
} from '@memex/domain';
import { ProjectId, ProjectKeyGuard, ZodPipe } from '@memex/server';
import { IngestService } from './ingest.service';

/** The hot path: events in, sessions completed. Projects and operator endpoints are brain-api's. */
@Controller('api/v2')
export class IngestController {
  constructor(private readonly ingest: IngestService) {}

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
    @Body(new ZodPipe(completeSessionBodySchema)) body: CompleteSessionBody,
  ): Promise<{ sessionId: string; enqueued: boolean }> {
    return this.ingest.complete(projectId, params.sessionId, body.ended);
  }
}
