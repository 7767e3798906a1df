import { Injectable } from '@nestjs/common';
import { MemoryItemAdminRepository, isConnectionLoss } from '@memex/db';
import {
  DomainError,
  brainQuerySchema,
  contextPackBodySchema,
  itemParamsSchema,
  parseOrThrow,
  rememberBodySchema,
  searchQuerySchema,
  toItemView,
} from '@memex/domain';
import { DECISIONS_SHOWN, contextPackBody, memoryErrorFrom, type MemoryPort } from '@memex/mcp';
import { databaseUnavailable } from '@memex/server';
import { BrainService } from '@memex/feature-brain';
import { ManualItemService } from '@memex/feature-items';
import { SearchService } from '@memex/feature-search';

/** The JSON the HTTP API would send: dates as ISO strings. */
function asJson<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * Domain errors are the caller's to fix and reach the model, as does a lost database
 * connection (reads were tried once more where they ran); anything else stays internal.
 */
async function answer<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (caught) {
    const error = isConnectionLoss(caught) ? databaseUnavailable() : caught;
    if (error instanceof DomainError) throw memoryErrorFrom(error.code, error.message);
    throw error;
  }
}

/**
 * The MCP server's memory inside brain-api: the same services and validation as the HTTP
 * routes, scoped to the project of the request's key.
 */
@Injectable()
export class ProjectMemoryFactory {
  constructor(
    private readonly brains: BrainService,
    private readonly search: SearchService,
    private readonly items: MemoryItemAdminRepository,
    private readonly manual: ManualItemService,
  ) {}

  forProject(projectId: string): MemoryPort {
    return {
      brain: (tokenBudget) =>
        answer(async () => {
          // The HTTP route's own query schema: numbers as the query string carries them.
          const query = parseOrThrow(
            brainQuerySchema,
            tokenBudget === undefined ? {} : { tokenBudget: String(tokenBudget) },
          );
          return this.brains.brain(projectId, query.tokenBudget);
        }),
      summary: () => answer(() => this.brains.summary(projectId)),
      search: (input) =>
        answer(async () => {
          const query = parseOrThrow(searchQuerySchema, {
            q: input.query,
            ...(input.limit !== undefined ? { limit: String(input.limit) } : {}),
            ...(input.type ? { type: input.type } : {}),
            ...(input.includeArchived !== undefined ? { includeArchived: String(input.includeArchived) } : {}),
          });
          return this.search.query(projectId, query);
        }),
      contextPack: (input) =>
        answer(async () => {
          const body = parseOrThrow(contextPackBodySchema, contextPackBody(input));
          return asJson(await this.search.contextPack(projectId, body));
        }),
      remember: (input) =>
        answer(async () => {
          const body = parseOrThrow(rememberBodySchema, input);
          return toItemView(await this.manual.remember(projectId, body));
        }),
      getItem: (itemId) =>
        answer(async () => {
          const { id } = parseOrThrow(itemParamsSchema, { id: itemId });
          return toItemView((await this.items.get(projectId, id)).item);
        }),
      decisions: () =>
        answer(async () => {
          const { items } = await this.items.list(projectId, {
            type: 'Decision',
            status: 'active',
            limit: DECISIONS_SHOWN,
          });
          return items.map(toItemView);
        }),
    };
  }
}
