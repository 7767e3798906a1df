import { z } from 'zod';
import { ENTITY_KINDS } from '@memex/entities';
import { ITEM_STATUSES, ITEM_TYPES } from './memory-item';
import { EVENT_TYPES, clientIdSchema, timestampSchema } from './raw-event';
import { queryInteger } from './query-params';
import { storable } from './storable';

const booleanParam = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Words a search query may hold: highlighting costs grow with them, and past this a query is a document. */
export const MAX_QUERY_WORDS = 32;

/**
 * What PostgreSQL's English parser keeps of a negative contraction: "won't" is indexed as `won`
 * (its `t` is a stop word), "isn't" as `isn`. The index cannot tell them from the word itself,
 * so as a query's term they match any item that says "won't": "who won the 1998 world cup"
 * found a note that disabling GC "won't lose any data". A query's term never counts them.
 */
export const CONTRACTION_STEMS: readonly string[] =
  'won isn aren wasn weren hasn haven hadn doesn didn couldn wouldn shouldn mustn needn shan mightn ain'.split(' ');

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

const percent = z.number().min(0).max(100);
const weight = z.number().min(0).max(100);

/** Names spec/context-assembly.md uses beside this API's own: `entities` for `entity`, and so on. */
const SPEC_NAMES = { entities: 'entity', relations: 'relation', patterns: 'pattern' } as const;

/**
 * ContextRequest.strategy of spec/context-assembly.md: any part left out takes the intent's
 * default. The spec's own names are taken too (`budgetAllocation.entities`, `relations`,
 * `patterns`, `salientWeight`); one part named both ways is a 400.
 */
export const contextStrategySchema = z
  .strictObject({
    budgetAllocation: z
      .strictObject({
        recent: percent.optional(),
        semantic: percent.optional(),
        entity: percent.optional(),
        relation: percent.optional(),
        pattern: percent.optional(),
        entities: percent.optional(),
        relations: percent.optional(),
        patterns: percent.optional(),
      })
      .optional(),
    recencyWeight: weight.optional(),
    relevanceWeight: weight.optional(),
    salienceWeight: weight.optional(),
    salientWeight: weight.optional(),
    depthLimit: z.number().int().min(0).max(4).optional(),
  })
  .superRefine((s, ctx) => {
    for (const [spec, own] of Object.entries(SPEC_NAMES)) {
      const a = s.budgetAllocation?.[spec as keyof typeof SPEC_NAMES];
      if (a !== undefined && s.budgetAllocation?.[own] !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['budgetAllocation', spec], message: `give ${spec} or ${own}, not both` });
      }
    }
    if (s.salientWeight !== undefined && s.salienceWeight !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['salientWeight'],
        message: 'give salientWeight or salienceWeight, not both',
      });
    }
  })
  .transform(({ budgetAllocation, salientWeight, salienceWeight, ...rest }) => {
    const out: {
      budgetAllocation?: { recent?: number; semantic?: number; entity?: number; relation?: number; pattern?: number };
      recencyWeight?: number;
      relevanceWeight?: number;
      salienceWeight?: number;
      depthLimit?: number;
    } = { ...rest };
    if (budgetAllocation) {
      const { entities, relations, patterns, ...own } = budgetAllocation;
      out.budgetAllocation = {
        ...own,
        ...(entities !== undefined ? { entity: entities } : {}),
        ...(relations !== undefined ? { relation: relations } : {}),
        ...(patterns !== undefined ? { pattern: patterns } : {}),
      };
    }
    const salience = salienceWeight ?? salientWeight;
    if (salience !== undefined) out.salienceWeight = salience;
    return out;
  });

export const contextPackBodySchema = z.strictObject({
  query: storable(z.string().trim().min(1).max(2000)),
  maxTokens: z.number().int().min(50).max(32_000),
  /** The client's session id (as ingested): its task stack leads the pack and its events are the recent ones. */
  sessionId: clientIdSchema.optional(),
  strategy: contextStrategySchema.optional(),
  /** Text the caller adds as it is, as a `custom` component. */
  additionalContext: storable(z.string().max(4000)).optional(),
  filters: z
    .strictObject({
      types: z.array(z.enum(ITEM_TYPES)).min(1).max(ITEM_TYPES.length).optional(),
      includeArchived: z.boolean().optional(),
      /** Recent events of the project's sessions as "recent" components (default true). */
      includeRecent: z.boolean().optional(),
      /** Only what happened (or changed) after this: epoch milliseconds or an ISO-8601 instant. */
      // The largest instant a Date holds: past it `new Date(n)` is invalid.
      since: z.union([z.number().int().min(0).max(8_640_000_000_000_000), timestampSchema]).optional(),
      /** Only recent events of these types. */
      eventTypes: z.array(z.enum(EVENT_TYPES)).min(1).max(EVENT_TYPES.length).optional(),
      /** Only entities (and relations between entities) of these kinds. */
      entityTypes: z.array(z.enum(ENTITY_KINDS)).min(1).max(ENTITY_KINDS.length).optional(),
      /** Leave these out: item ids, event ids, entity ids or pattern signatures. */
      exclude: z.array(z.string().min(1).max(500)).max(500).optional(),
    })
    .optional()
    .default({}),
});
export type ContextPackBody = z.infer<typeof contextPackBodySchema>;
