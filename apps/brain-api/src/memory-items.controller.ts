import { Body, Controller, Delete, Get, HttpCode, Logger, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { MemoryItemAdminRepository } from '@memex/db';
import {
  DomainError,
  applyAction,
  bulkItemsBodySchema,
  createItemBodySchema,
  itemParamsSchema,
  listItemsQuerySchema,
  patchItemBodySchema,
  type BulkItemsBody,
  type CreateItemBody,
  type ItemChange,
  type ListItemsQuery,
  type PatchItemBody,
} from '@memex/domain';
import { ProjectId, ProjectScopeGuard, RedactionService, ZodPipe } from '@memex/server';
import { ManualItemService } from './manual-items.service';

const ACTOR = 'api';

/** The columns an action's change writes. */
function actionColumns(moved: ItemChange) {
  return {
    ...(moved.status ? { status: moved.status } : {}),
    ...(moved.resolvedAt !== undefined ? { resolved_at: moved.resolvedAt } : {}),
    ...(moved.supersededBy !== undefined ? { superseded_by: moved.supersededBy } : {}),
  };
}

/**
 * Browse, edit, approve, deprecate, archive, restore, resolve and delete items; every change
 * lands in history and bumps the revision.
 */
@Controller('api/v2/memory-items')
@UseGuards(ProjectScopeGuard)
export class MemoryItemsController {
  private readonly logger = new Logger(MemoryItemsController.name);

  constructor(
    private readonly items: MemoryItemAdminRepository,
    private readonly manual: ManualItemService,
    private readonly redaction: RedactionService,
  ) {}

  @Get()
  list(@ProjectId() projectId: string, @Query(new ZodPipe(listItemsQuerySchema)) query: ListItemsQuery) {
    return this.items.list(projectId, query);
  }

  @Get(':id')
  get(@ProjectId() projectId: string, @Param(new ZodPipe(itemParamsSchema)) params: { id: string }) {
    return this.items.get(projectId, params.id);
  }

  @Patch(':id')
  async patch(
    @ProjectId() projectId: string,
    @Param(new ZodPipe(itemParamsSchema)) params: { id: string },
    @Body(new ZodPipe(patchItemBodySchema)) sent: PatchItemBody,
  ) {
    const { action, reason, type, schemaKey, ...text } = await this.redaction.value(projectId, sent);
    const now = new Date();
    const [item] = await this.items.change(
      projectId,
      [params.id],
      (current) => {
        // An action is judged on the item as the same request leaves it (a type change included).
        const moved = action ? applyAction({ ...current, type: type ?? current.type }, action, now) : {};
        return {
          ...text,
          ...(type ? { type } : {}),
          ...(schemaKey ? { schema_key: schemaKey } : {}),
          ...actionColumns(moved),
        };
      },
      { actor: ACTOR, kind: action ?? 'edited', reason: reason ?? null },
    );
    return item;
  }

  /** For good, with its history: see MemoryItemAdminRepository.delete. */
  @Delete(':id')
  async remove(@ProjectId() projectId: string, @Param(new ZodPipe(itemParamsSchema)) params: { id: string }) {
    const deleted = await this.items.delete(projectId, params.id, { actor: ACTOR, reason: null });
    // The one trace a deletion leaves: who removed which id, never what it said.
    this.logger.log({ projectId, itemId: params.id, unlinked: deleted.unlinked.length }, 'memory item deleted');
    return { ...deleted, deleted: true };
  }

  @Post()
  @HttpCode(201)
  create(@ProjectId() projectId: string, @Body(new ZodPipe(createItemBodySchema)) body: CreateItemBody) {
    return this.manual.create(projectId, body, { actor: ACTOR, reason: 'added by hand' });
  }

  /** All or nothing: one illegal move (409) or unknown id (404) and no item changes. */
  @Post('bulk')
  async bulk(@ProjectId() projectId: string, @Body(new ZodPipe(bulkItemsBodySchema)) sent: BulkItemsBody) {
    const body = await this.redaction.value(projectId, sent);
    const ids = [...new Set(body.ids)];
    const now = new Date();
    const updated = await this.items.change(
      projectId,
      ids,
      (current) => {
        try {
          return actionColumns(applyAction(current, body.action, now));
        } catch (error) {
          if (error instanceof DomainError) {
            throw new DomainError(error.code, `${current.itemId}: ${error.message}`, {
              ...error.details,
              id: current.itemId,
            });
          }
          throw error;
        }
      },
      { actor: ACTOR, kind: body.action, reason: body.reason ?? null },
    );
    return { updated: updated.length, items: updated };
  }
}
