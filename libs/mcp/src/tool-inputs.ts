import { z } from 'zod';
import {
  AUTHORED_ITEM_TYPES,
  ITEM_LIMITS,
  ITEM_TYPES,
  MIN_QUOTE_CHARS,
  authoredItemTypeSchema,
  contextStrategySchema,
} from '@memex/domain';
import { ENTITY_KINDS } from '@memex/entities';

/**
 * Tool arguments as zod raw shapes (the SDK publishes them as JSON Schema and validates calls
 * against them). Plain types only, so they convert to JSON Schema; the HTTP API validates the
 * rest (e.g. word counts) and its message comes back as a tool error.
 */

const itemType = z.enum(ITEM_TYPES);

export const getMemoryInput = {
  tokenBudget: z.number().int().min(500).max(100_000).optional().describe('Token budget of the brain (default 6000).'),
};

export const searchInput = {
  query: z.string().trim().min(1).max(500).describe('Words to look for; "quoted phrases", OR and -excluded work.'),
  limit: z.number().int().min(1).max(50).optional().describe('Results to return (default 10).'),
  type: itemType.optional().describe('Only items of this type.'),
  includeArchived: z.boolean().optional().describe('Also superseded and archived items.'),
};

export const contextPackInput = {
  query: z.string().trim().min(1).max(2000).describe('The task or question to gather context for.'),
  maxTokens: z.number().int().min(50).max(32_000).optional().describe('Token budget of the pack (default 2000).'),
  types: z.array(itemType).min(1).max(ITEM_TYPES.length).optional().describe('Only items of these types.'),
  includeRecent: z.boolean().optional().describe('Include recent session events (default true).'),
  sessionId: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe("A session id: its task stack leads the pack (default: this assistant's session, when known)."),
  strategy: contextStrategySchema
    .optional()
    .describe(
      "How to spend the budget: budgetAllocation (percent per recent, semantic, entity, relation, pattern), recencyWeight, relevanceWeight, salienceWeight, depthLimit (0-4). Left out: the query's intent's defaults.",
    ),
  since: z.string().trim().min(1).max(40).optional().describe('Only what happened after this ISO-8601 instant.'),
  entityTypes: z
    .array(z.enum(ENTITY_KINDS))
    .min(1)
    .max(ENTITY_KINDS.length)
    .optional()
    .describe(`Only entities of these kinds: ${ENTITY_KINDS.join(', ')}.`),
  exclude: z
    .array(z.string().min(1).max(500))
    .max(100)
    .optional()
    .describe('Leave these out: item ids, event ids, entity ids or error signatures.'),
};

export const rememberInput = {
  type: authoredItemTypeSchema.describe(`The kind of memory: ${AUTHORED_ITEM_TYPES.join(', ')}.`),
  title: z.string().trim().min(1).max(ITEM_LIMITS.title).describe('One line naming the memory.'),
  facts: z.string().trim().min(1).max(ITEM_LIMITS.facts).describe('What is true, in plain statements.'),
  rationale: z.string().trim().min(1).max(ITEM_LIMITS.rationale).optional().describe('Why (for decisions).'),
  files: z
    .array(z.string().min(1).max(ITEM_LIMITS.filePath))
    .max(ITEM_LIMITS.files)
    .optional()
    .describe('Project-relative paths the memory is about.'),
  quotes: z
    .array(z.string().trim().min(MIN_QUOTE_CHARS).max(2000))
    .min(1)
    .max(5)
    .describe(
      "1-5 verbatim quotes from this session that show it: your own words or the person's, copied exactly (at least 12 characters each). Memex checks them against the session.",
    ),
};

export const getItemInput = {
  id: z.string().trim().min(1).max(64).describe('An item id, as shown by memex_search.'),
};

export const DEFAULT_PACK_TOKENS = 2000;
