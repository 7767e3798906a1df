import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
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
  type ListItemsQuery,
  type PatchItemBody,
} from '@memex/domain';
import { ProjectId, ProjectKeyGuard, ZodPipe } from '@memex/server';
import { ManualItemService } from './manual-items.service';
import { RevisionCache } from './revision-cache';

const ACTOR = 'api';

/** Browse, edit, approve, deprecate and resolve items; every change lands in history and bumps the revision. */
@Controller('api/v2/memory-items')
@UseGuards(ProjectKeyGuard)
export class MemoryItemsController {
  constructor(
    private readonly items: MemoryItemAdminRepository,
    private readonly revisions: RevisionCache,
    private readonly manual: ManualItemService,
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
    @Body(new ZodPipe(patchItemBodySchema)) body: PatchItemBody,
  ) {
    const { action, reason, type, schemaKey, ...text } = body;
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
          ...(moved.status ? { status: moved.status } : {}),
          ...(moved.resolvedAt !== undefined ? { resolved_at: moved.resolvedAt } : {}),
        };
      },
      { actor: ACTOR, kind: action ?? 'edited', reason: reason ?? null },
    );
    this.revisions.forget(projectId);
    return item;
  }

  @Post()
  @HttpCode(201)
  create(@ProjectId() projectId: string, @Body(new ZodPipe(createItemBodySchema)) body: CreateItemBody) {
    return this.manual.create(projectId, body, { actor: ACTOR, reason: 'added by hand' });
  }

  /** All or nothing: one illegal move (409) or unknown id (404) and no item changes. */
  @Post('bulk')
  async bulk(@ProjectId() projectId: string, @Body(new ZodPipe(bulkItemsBodySchema)) body: BulkItemsBody) {
    const ids = [...new Set(body.ids)];
    const now = new Date();
    const updated = await this.items.change(
      projectId,
      ids,
      (current) => {
        try {
          const moved = applyAction(current, body.action, now);
          return {
            ...(moved.status ? { status: moved.status } : {}),
            ...(moved.resolvedAt !== undefined ? { resolved_at: moved.resolvedAt } : {}),
          };
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
    this.revisions.forget(projectId);
    return { updated: updated.length, items: updated };
  }
}
