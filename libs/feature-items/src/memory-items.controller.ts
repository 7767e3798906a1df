import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { MemoryItemAdminRepository } from '@memex/db';
import {
  bulkItemsBodySchema,
  createItemBodySchema,
  itemParamsSchema,
  listItemsQuerySchema,
  patchItemBodySchema,
  toHistoryEntryView,
  toItemView,
  type BulkItemsBody,
  type BulkResultView,
  type CreateItemBody,
  type DeletedItemView,
  type ItemDetailView,
  type ItemPageView,
  type ItemView,
  type ListItemsQuery,
  type PatchItemBody,
} from '@memex/domain';
import { ProjectId, ProjectScopedController, ZodPipe } from '@memex/server';
import { ItemCurationService } from './item-curation.service';
import { ManualItemService } from './manual-items.service';

const ACTOR = 'api';

/**
 * Browse, edit, approve, deprecate, archive, restore, resolve and delete items; every change
 * lands in history and bumps the revision.
 */
@ProjectScopedController('memory-items')
export class MemoryItemsController {
  constructor(
    private readonly items: MemoryItemAdminRepository,
    private readonly curation: ItemCurationService,
    private readonly manual: ManualItemService,
  ) {}

  @Get()
  async list(
    @ProjectId() projectId: string,
    @Query(new ZodPipe(listItemsQuerySchema)) query: ListItemsQuery,
  ): Promise<ItemPageView> {
    const page = await this.items.list(projectId, query);
    return { items: page.items.map(toItemView), nextCursor: page.nextCursor };
  }

  @Get(':id')
  async get(
    @ProjectId() projectId: string,
    @Param(new ZodPipe(itemParamsSchema)) params: { id: string },
  ): Promise<ItemDetailView> {
    const { item, history } = await this.items.get(projectId, params.id);
    return { item: toItemView(item), history: history.map(toHistoryEntryView) };
  }

  @Patch(':id')
  async patch(
    @ProjectId() projectId: string,
    @Param(new ZodPipe(itemParamsSchema)) params: { id: string },
    @Body(new ZodPipe(patchItemBodySchema)) body: PatchItemBody,
  ): Promise<ItemView> {
    return toItemView(await this.curation.patch(projectId, params.id, body));
  }

  /** For good, with its history: see MemoryItemAdminRepository.delete. */
  @Delete(':id')
  remove(
    @ProjectId() projectId: string,
    @Param(new ZodPipe(itemParamsSchema)) params: { id: string },
  ): Promise<DeletedItemView> {
    return this.curation.remove(projectId, params.id);
  }

  @Post()
  @HttpCode(201)
  async create(
    @ProjectId() projectId: string,
    @Body(new ZodPipe(createItemBodySchema)) body: CreateItemBody,
  ): Promise<ItemView> {
    return toItemView(await this.manual.create(projectId, body, { actor: ACTOR, reason: 'added by hand' }));
  }

  /** All or nothing: one illegal move (409) or unknown id (404) and no item changes. */
  @Post('bulk')
  async bulk(
    @ProjectId() projectId: string,
    @Body(new ZodPipe(bulkItemsBodySchema)) body: BulkItemsBody,
  ): Promise<BulkResultView> {
    const { updated, items } = await this.curation.bulk(projectId, body);
    return { updated, items: items.map(toItemView) };
  }
}
