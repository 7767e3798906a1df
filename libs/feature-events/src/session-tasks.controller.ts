import { Get, Param } from '@nestjs/common';
import { EntityRepository } from '@memex/db';
import { DomainError, sessionParamsSchema } from '@memex/domain';
import { TASK_EVENTS, TASK_TOOLS, asSourceEvent, taskStack } from '@memex/entities';
import { ProjectId, ProjectScopedController, ZodPipe } from '@memex/server';

/**
 * A session's task frames (spec/context-assembly.md "Stack-Based Context"), read from its
 * TodoWrite lists and Task/Agent calls: the root goal, the path to the current frame, and
 * what finished. Served beside the session reads, where the Ingress sends `/api/v2/sessions`.
 */
@ProjectScopedController()
export class SessionTasksController {
  constructor(private readonly entities: EntityRepository) {}

  @Get('sessions/:sessionId/tasks')
  async tasks(@ProjectId() projectId: string, @Param(new ZodPipe(sessionParamsSchema)) params: { sessionId: string }) {
    const found = await this.entities.taskEvents(projectId, params.sessionId, TASK_TOOLS, TASK_EVENTS);
    if (!found) {
      throw new DomainError('SESSION_NOT_FOUND', `no session ${params.sessionId} in this project`, {
        sessionId: params.sessionId,
      });
    }
    const stack = taskStack(found.events.map(asSourceEvent));
    return {
      sessionId: params.sessionId,
      root: stack.path[0]!.id,
      current: stack.current,
      path: stack.path.map((f) => f.id),
      completed: stack.frames.filter((f) => f.status === 'complete').map((f) => f.id),
      frames: stack.frames,
    };
  }
}
