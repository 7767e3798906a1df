import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { MemoryItemAdminRepository } from '@memex/db';
import {
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
import { ProjectId, ProjectScopeGuard, ZodPipe } from '@memex/server';
import { ItemCurationService } from './item-curation.service';
import { ManualItemService } from './manual-items.service';

const ACTOR = 'api';

/**
 * Browse, edit, approve, deprecate, archive, restore, resolve and delete items; every change
 * lands in history and bumps the revision.
 */
@Controller('api/v2/memory-items')
@UseGuards(ProjectScopeGuard)
export class MemoryItemsController {
  constructor(
    private readonly items: MemoryItemAdminRepository,
    private readonly curation: ItemCurationService,
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
  patch(
    @ProjectId() projectId: string,
    @Param(new ZodPipe(itemParamsSchema)) params: { id: string },
    @Body(new ZodPipe(patchItemBodySchema)) body: PatchItemBody,
  ) {
    return this.curation.patch(projectId, params.id, body);
  }

  /** For good, with its history: see MemoryItemAdminRepository.delete. */
  @Delete(':id')
  remove(@ProjectId() projectId: string, @Param(new ZodPipe(itemParamsSchema)) params: { id: string }) {
    return this.curation.remove(projectId, params.id);
  }

  @Post()
  @HttpCode(201)
  create(@ProjectId() projectId: string, @Body(new ZodPipe(createItemBodySchema)) body: CreateItemBody) {
    return this.manual.create(projectId, body, { actor: ACTOR, reason: 'added by hand' });
  }

  /** All or nothing: one illegal move (409) or unknown id (404) and no item changes. */
  @Post('bulk')
  bulk(@ProjectId() projectId: string, @Body(new ZodPipe(bulkItemsBodySchema)) body: BulkItemsBody) {
    return this.curation.bulk(projectId, body);
  }
}
