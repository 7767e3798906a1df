import { Body, Get, HttpCode, Post, Query } from '@nestjs/common';
import { contextPackBodySchema, searchQuerySchema, type ContextPackBody, type SearchQuery } from '@memex/domain';
import { ProjectId, ProjectScopedController, ZodPipe } from '@memex/server';
import { SearchService } from './search.service';

/** Questions in words over the whole memory, and context packs that fit an assistant's budget. */
@ProjectScopedController()
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Get('search')
  query(@ProjectId() projectId: string, @Query(new ZodPipe(searchQuerySchema)) query: SearchQuery) {
    return this.search.query(projectId, query);
  }

  @Post('context-pack')
  @HttpCode(200)
  contextPack(@ProjectId() projectId: string, @Body(new ZodPipe(contextPackBodySchema)) body: ContextPackBody) {
    return this.search.contextPack(projectId, body);
  }
}
