import { z } from 'zod';
import { ulidSchema } from './ids';
import { storable } from './storable';
import { ITEM_ACTIONS } from './item-action-names';
import { queryDecimal, queryInteger } from './query-params';
import { timestampSchema } from './raw-event';
import {
  ITEM_LIMITS,
  ITEM_STATUSES,
  MANUAL_SESSION_ID,
  TAG_PATTERN,
  ITEM_TYPES,
  authoredItemTypeSchema,
  confidenceSchema,
  dedupHintSchema,
  evidenceSpanSchema,
  factsSchema,
  filesSchema,
  impactSchema,
  importanceSchema,
  rationaleSchema,
  schemaKeySchema,
  tagsSchema,
  titleSchema,
} from './memory-item';

export const brainQuerySchema = z.strictObject({
  tokenBudget: queryInteger(500, 100_000).default(6000),
});

/** The summary takes no parameters: anything in its query string is a client's mistake. */
export const summaryQuerySchema = z.strictObject({});

export const listItemsQuerySchema = z
  .strictObject({
    type: z.enum(ITEM_TYPES).optional(),
    status: z.enum(ITEM_STATUSES).optional(),
    schemaKey: storable(z.string().max(200)).optional(),
    minConfidence: queryDecimal(0, 1).optional(),
    text: storable(z.string().min(1).max(200)).optional(),
    /** Items carrying this tag. */
    tag: z.string().max(ITEM_LIMITS.tag).regex(TAG_PATTERN, 'must be lowercase words joined by hyphens').optional(),
    /** Items naming a file whose path contains this. */
    file: storable(z.string().min(1).max(ITEM_LIMITS.filePath)).optional(),
    /** Items of one session (the `sessionId` items carry), or `manual` for items written by hand. */
    sessionId: z.union([ulidSchema, z.literal(MANUAL_SESSION_ID)]).optional(),
    /** Last changed at or after / before this instant: the age filter. */
    updatedAfter: timestampSchema.optional(),
    updatedBefore: timestampSchema.optional(),
    cursor: ulidSchema.optional(),
    limit: queryInteger(1, 200).default(50),
  })
  .refine((q) => !q.updatedAfter || !q.updatedBefore || Date.parse(q.updatedAfter) < Date.parse(q.updatedBefore), {
    message: 'must be later than updatedAfter',
    path: ['updatedBefore'],
  });
export type ListItemsQuery = z.infer<typeof listItemsQuerySchema>;

export const itemParamsSchema = z.strictObject({ id: ulidSchema });

/** Edits of what an item says; status moves go through actions. */
export const itemEditSchema = z.strictObject({
  title: titleSchema.optional(),
  facts: factsSchema.optional(),
  rationale: rationaleSchema.optional(),
  impact: impactSchema.optional(),
  type: authoredItemTypeSchema.optional(),
  schemaKey: schemaKeySchema.optional(),
  importance: importanceSchema.optional(),
  tags: tagsSchema.optional(),
});
export type ItemEdit = z.infer<typeof itemEditSchema>;

export const patchItemBodySchema = itemEditSchema
  .extend({ action: z.enum(ITEM_ACTIONS).optional(), reason: z.string().min(1).max(1000).optional() })
  .strict()
  .refine((b) => Object.keys(b).some((k) => k !== 'reason'), 'give fields to edit or an action');
export type PatchItemBody = z.infer<typeof patchItemBodySchema>;

/** What a new item says, whoever proposes it: a person (below) or an engine (a candidate). */
export const newItemContentShape = {
  type: z.enum(ITEM_TYPES),
  title: titleSchema,
  facts: factsSchema,
  rationale: rationaleSchema.optional().default(null),
  impact: impactSchema.optional().default(null),
  files: filesSchema.optional().default([]),
  tags: tagsSchema.optional().default([]),
};

/** A manual item: a person's word, so confidence 1.0 and evidence optional. */
export const createItemBodySchema = z.strictObject({
  ...newItemContentShape,
  schemaKey: schemaKeySchema.optional(),
  dedupHint: dedupHintSchema.optional(),
  importance: importanceSchema.optional().default(3),
  confidence: confidenceSchema.optional().default(1),
  evidence: z.array(evidenceSpanSchema).max(50).optional().default([]),
});
export type CreateItemBody = z.infer<typeof createItemBodySchema>;

/** The fewest characters a quote must have to count as evidence (as for every engine). */
export const MIN_QUOTE_CHARS = 12;

/**
 * What an assistant records with `memex_remember` (`POST /api/v2/memories`): a memory and the
 * verbatim words of the session that show it, its own or the person's, checked against the
 * session as Memex captured it like any extracted item's evidence.
 */
export const rememberBodySchema = z.strictObject({
  type: authoredItemTypeSchema,
  title: titleSchema,
  facts: factsSchema,
  rationale: rationaleSchema.optional().default(null),
  files: filesSchema.optional().default([]),
  quotes: z.array(z.string().trim().min(MIN_QUOTE_CHARS).max(2000)).min(1).max(5),
});
export type RememberBody = z.infer<typeof rememberBodySchema>;

export const bulkItemsBodySchema = z.strictObject({
  ids: z.array(ulidSchema).min(1).max(500),
  action: z.enum(ITEM_ACTIONS),
  reason: z.string().min(1).max(1000).optional(),
});
export type BulkItemsBody = z.infer<typeof bulkItemsBodySchema>;
