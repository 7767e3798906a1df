import type { MemoryItem } from '@memex/domain';

/** A value as JSON carries it: dates become ISO strings. */
type AsJson<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

/** An item as the HTTP API returns it (GET /api/v2/memory-items, POST /api/v2/memory-items). */
export type ItemJson = AsJson<MemoryItem>;

/** One entry of an item's history (GET /api/v2/memory-items/:id). */
export interface HistoryJson {
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
