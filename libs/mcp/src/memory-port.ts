import type { BrainView, SummaryView } from '@memex/domain';
import type { ContextPackBody, ItemType, ItemView, SearchResponseView } from '@memex/domain';
import type { ContextPack } from '@memex/search';

/**
 * What the MCP server needs from Memex. brain-api answers it in process (the project comes
 * from the request's key); `memex mcp` answers it over the HTTP API. Answers are the API's
 * views (@memex/domain, @memex/brain), so both sides are interchangeable.
 */
export interface MemoryPort {
  brain(tokenBudget?: number): Promise<BrainView>;
  summary(): Promise<SummaryView>;
  search(input: SearchInput): Promise<SearchResponseView>;
  contextPack(input: ContextPackInput): Promise<ContextPackView>;
  remember(input: RememberInput): Promise<ItemView>;
  getItem(itemId: string): Promise<ItemView>;
  /** Active Decision items, newest first. */
  decisions(): Promise<ItemView[]>;
}

export interface SearchInput {
  query: string;
  limit?: number;
  type?: ItemType;
  includeArchived?: boolean;
}

export interface ContextPackInput {
  query: string;
  maxTokens: number;
  types?: ItemType[];
  includeRecent?: boolean;
  sessionId?: string;
  strategy?: ContextPackBody['strategy'];
  since?: string;
  entityTypes?: NonNullable<ContextPackBody['filters']['entityTypes']>;
  exclude?: string[];
}

/** The HTTP API's context-pack body for a tool's arguments. */
export function contextPackBody(input: ContextPackInput) {
  const defined = <T extends object>(o: T) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  return {
    query: input.query,
    maxTokens: input.maxTokens,
    ...defined({ sessionId: input.sessionId, strategy: input.strategy }),
    filters: defined({
      types: input.types,
      includeRecent: input.includeRecent,
      since: input.since,
      entityTypes: input.entityTypes,
      exclude: input.exclude,
    }),
  };
}

export interface RememberInput {
  type: ItemType;
  title: string;
  facts: string;
  rationale?: string;
  files?: string[];
  /** Words of the session, the assistant's own or the person's, verbatim: the item's evidence. */
  quotes: string[];
}

/** What the context pack tool shows of a pack. */
export type ContextPackView = Pick<ContextPack, 'content' | 'tokenCount' | 'truncated' | 'components'>;

/** Active decisions the memex://decisions resource lists (the API's page limit). */
export const DECISIONS_SHOWN = 200;

/**
 * A failure the caller can act on (bad input, unknown item, server unreachable): its message
 * goes back to the model as a tool error. Anything else is an internal error.
 */
export class MemoryError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'MemoryError';
  }
}

/** An API error (`{code, message}`) as the model should read it: in the tool's argument names. */
export function memoryErrorFrom(code: string, message: string): MemoryError {
  return new MemoryError(code, message.replace(/^q:/, 'query:'));
}
