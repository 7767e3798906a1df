import type { MemoryItem } from './memory-item';
import type { ProjectSummary } from './project';

// The API's answers, declared once: the HTTP controllers return them, the MCP port and the
// CLI read them, the dashboard types its pages with them. Type-only imports keep this module
// free of zod, so the browser bundle can take it by file.

/** A value as JSON carries it: dates become ISO strings. */
export type AsJson<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

/** A memory item as every API answers it. */
export type ItemView = AsJson<MemoryItem>;

export function toItemView(item: MemoryItem): ItemView {
  return {
    ...item,
    lastReinforcedAt: item.lastReinforcedAt?.toISOString() ?? null,
    resolvedAt: item.resolvedAt?.toISOString() ?? null,
    createdAt: item.createdAt.toISOString(),
    updatedAt: item.updatedAt.toISOString(),
  };
}

/** One entry of an item's history: the whole item before and after (null for a creation or deletion). */
export interface HistoryEntryView {
  id: number;
  change: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  actorType: string;
  actor: string;
  reason: string | null;
  runId: string | null;
  createdAt: string;
}

export function toHistoryEntryView(entry: Omit<HistoryEntryView, 'createdAt'> & { createdAt: Date }): HistoryEntryView {
  return { ...entry, createdAt: entry.createdAt.toISOString() };
}

/** `GET /api/v2/memory-items`. */
export interface ItemPageView {
  items: ItemView[];
  nextCursor: string | null;
}

/** `GET /api/v2/memory-items/:id`. */
export interface ItemDetailView {
  item: ItemView;
  history: HistoryEntryView[];
}

/** `POST /api/v2/memory-items/bulk`. */
export interface BulkResultView {
  updated: number;
  items: ItemView[];
}

/** `DELETE /api/v2/memory-items/:id`. */
export interface DeletedItemView {
  itemId: string;
  deleted: true;
  /** Items whose evidence or merge history pointed at it, now unlinked. */
  unlinked: string[];
  expiredProposals: number;
}

/** One hit of `GET /api/v2/search`. */
export interface SearchResultView {
  itemId: string;
  /** The fused score (reciprocal rank fusion), 0–1 (1: both sources rank it first), rounded to 6 decimals. */
  score: number;
  /** Each source's rank, null where that source did not find the item. */
  ranks: { fullText: number | null; vector: number | null };
  /**
   * Each source's own score, null where it did not find the item: full text's share of the
   * query's weight the item matches (0–1), the vector's cosine similarity.
   */
  scores: { fullText: number | null; vector: number | null };
  snippet: string;
  item: SearchItemView;
}

/** The fields of an item a search hit carries: enough to list it, its words are in the snippet. */
export const SEARCH_ITEM_FIELDS = [
  'itemId',
  'type',
  'status',
  'title',
  'confidence',
  'importance',
  'schemaKey',
  'files',
  'tags',
  'updatedAt',
] as const;
export type SearchItem = Pick<MemoryItem, (typeof SEARCH_ITEM_FIELDS)[number]>;
export type SearchItemView = AsJson<SearchItem>;

/** A search hit's item as the API answers it (anything beside its fields is left out). */
export function toSearchItemView(item: SearchItem): SearchItemView {
  const picked = Object.fromEntries(SEARCH_ITEM_FIELDS.map((field) => [field, item[field]])) as SearchItem;
  return { ...picked, updatedAt: item.updatedAt.toISOString() };
}

/** `GET /api/v2/search`. */
export interface SearchResponseView {
  /** The query as searched (redacted). */
  query: string;
  mode: 'hybrid' | 'fulltext' | 'vector';
  results: SearchResultView[];
  tookMs: number;
}

/** A session as the dashboard lists it: with how many events it holds and items it produced. */
export interface SessionSummary {
  id: string;
  externalId: string;
  branch: string | null;
  createdAt: Date;
  lastEventAt: Date;
  completedAt: Date | null;
  /** `completed` once the client said so, else `open`. */
  status: 'open' | 'completed';
  /** Events stored past the enrichment cursor: 0 when enrichment has caught up. */
  enrichmentPending: boolean;
  eventCount: number;
  itemCount: number;
}

/** `GET /api/v2/sessions` lists these. */
export type SessionView = AsJson<SessionSummary>;

/** A stored event, read back by its client id. */
export interface StoredEvent {
  eventId: string;
  type: string;
  timestamp: Date;
  receivedAt: Date;
  content: string;
  metadata: Record<string, unknown> | null;
  session: { id: string; externalId: string };
}

/** `GET /api/v2/events/:eventId`. */
export type StoredEventView = AsJson<StoredEvent>;

/** One project of `GET /api/v2/projects`, with how many items and sessions it holds. */
export type ProjectSummaryView = AsJson<ProjectSummary>;
