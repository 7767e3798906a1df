import { Get, Param, Query } from '@nestjs/common';
import { SessionRepository } from '@memex/db';
import { DomainError, eventParamsSchema, listSessionsQuerySchema, type ListSessionsQuery } from '@memex/domain';
import { ProjectId, ProjectScopedController, ZodPipe } from '@memex/server';

/**
 * What was captured, read back: a project's sessions and one event by its id (the evidence of
 * an item names its events so). Served here, beside the writes, because the Ingress sends
 * `/api/v2/events` and `/api/v2/sessions` to ingest-api.
 */
@ProjectScopedController()
export class SessionReadsController {
  constructor(private readonly sessions: SessionRepository) {}

  @Get('sessions')
  list(@ProjectId() projectId: string, @Query(new ZodPipe(listSessionsQuerySchema)) query: ListSessionsQuery) {
    return this.sessions.listForProject(projectId, query.cursor, query.limit);
  }

  @Get('events/:eventId')
  async event(@ProjectId() projectId: string, @Param(new ZodPipe(eventParamsSchema)) params: { eventId: string }) {
    const event = await this.sessions.findEvent(projectId, params.eventId);
    if (!event) {
      throw new DomainError('EVENT_NOT_FOUND', `no event ${params.eventId} in this project`, {
        eventId: params.eventId,
      });
    }
    return event;
  }
}
