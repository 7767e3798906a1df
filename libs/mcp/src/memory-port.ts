import type { ItemType, MemoryItem } from '@memex/domain';

/**
 * What the MCP server needs from Memex. brain-api answers it in process (the project comes
 * from the request's key); `memex mcp` answers it over the HTTP API. Shapes are the JSON the
 * HTTP API returns, so both sides are interchangeable.
 */
export interface MemoryPort {
  brain(tokenBudget?: number): Promise<MemoryDocument>;
  summary(): Promise<MemoryDocument>;
  search(input: SearchInput): Promise<{ results: SearchResultView[] }>;
  contextPack(input: ContextPackInput): Promise<ContextPackView>;
  remember(input: RememberInput): Promise<ItemView>;
  getItem(itemId: string): Promise<ItemView>;
  /** Active Decision items, newest first. */
  decisions(): Promise<ItemView[]>;
}

export interface MemoryDocument {
  document: string;
  brainHash: string;
  tokenEstimate?: number;
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

/** A value as JSON carries it: dates become ISO strings. */
type AsJson<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

/** A memory item as the HTTP API returns it (the fields the tools show). */
export type ItemView = AsJson<
  Pick<
    MemoryItem,
    | 'itemId'
    | 'type'
    | 'status'
    | 'title'
    | 'facts'
    | 'rationale'
    | 'files'
    | 'tags'
    | 'confidence'
    | 'sessionId'
    | 'createdAt'
    | 'updatedAt'
  >
>;

export interface SearchResultView {
  itemId: string;
  score: number;
  snippet: string;
  item: { type: string; status: string; title: string; files: string[] };
}

export interface ContextPackView {
  content: string;
  tokenCount: number;
  truncated: boolean;
  components: Array<{ type: string; source: string; tokens: number; relevanceScore: number }>;
}

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
