import { z } from 'zod';
import { ITEM_STATUSES, ITEM_TYPES } from './memory-item';
import { queryInteger } from './query-params';
import { storable } from './storable';

const booleanParam = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Words a search query may hold: highlighting costs grow with them, and past this a query is a document. */
export const MAX_QUERY_WORDS = 32;

/** The query's words (runs of letters and digits), as full text and highlighting count them. */
export function queryWords(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Marks around matched words in a search result's snippet. */
export const HIGHLIGHT = { start: '<mark>', stop: '</mark>' } as const;

export const SEARCH_MODES = ['hybrid', 'fulltext', 'vector'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const searchQuerySchema = z.strictObject({
  /** Web-search syntax for full text: words, "quoted phrases", OR, -excluded. */
  q: storable(z.string().trim().min(1).max(500)).refine((q) => queryWords(q).length <= MAX_QUERY_WORDS, {
    message: `at most ${MAX_QUERY_WORDS} words`,
  }),
  limit: queryInteger(1, 50).default(10),
  type: z.enum(ITEM_TYPES).optional(),
  status: z.enum(ITEM_STATUSES).optional(),
  includeArchived: booleanParam.default(false),
  /** Which sources rank: both fused (the default), or one alone. */
  mode: z.enum(SEARCH_MODES).default('hybrid'),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export const contextPackBodySchema = z.strictObject({
  query: storable(z.string().trim().min(1).max(2000)),
  maxTokens: z.number().int().min(50).max(32_000),
  filters: z
    .strictObject({
      types: z.array(z.enum(ITEM_TYPES)).min(1).max(ITEM_TYPES.length).optional(),
      includeArchived: z.boolean().optional(),
      /** Recent events of the project's sessions as "recent" components (default true). */
      includeRecent: z.boolean().optional(),
    })
    .optional()
    .default({}),
});
export type ContextPackBody = z.infer<typeof contextPackBodySchema>;
