import { z } from 'zod';
import { ulidSchema } from './ids';
import { clientIdSchema } from './raw-event';
import { storable } from './storable';
import { AUTHORED_ITEM_TYPES, ITEM_STATUSES, ITEM_TYPES } from './item-kinds';

export * from './item-kinds';

export const authoredItemTypeSchema = z.enum(AUTHORED_ITEM_TYPES, {
  error: () => `must be one of ${AUTHORED_ITEM_TYPES.join(', ')} (CodeMapNode items come from code scans)`,
});

export const ITEM_LIMITS = {
  title: 200,
  facts: 5000,
  rationale: 2000,
  impact: 1000,
  files: 50,
  filePath: 1024,
  tags: 5,
  tag: 50,
  schemaKey: 200,
  dedupHint: 200,
} as const;

/**
 * Evidence spans an item keeps: enrichment's reinforcements keep the newest, a hygiene merge
 * the kept item's own first.
 */
export const MAX_EVIDENCE_SPANS = 50;

/**
 * An item's `evidenceRefs`: the events its evidence spans quote, each once, in the spans' order.
 * Refs follow the spans an item keeps, so an item said again in every session keeps as many refs
 * as spans, not one more per saying. An item that keeps no span (a person's, written without a
 * quote) keeps the refs it was given (`unquoted`).
 */
export function evidenceRefsOf(spans: readonly { eventId: string }[], unquoted: readonly string[] = []): string[] {
  return spans.length > 0 ? [...new Set(spans.map((s) => s.eventId))] : [...unquoted];
}

/** Each evidence span once (same event, same quote), first seen first. */
export function distinctSpans<T extends { eventId: string; quote: string }>(spans: Iterable<T>): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const span of spans) {
    const key = `${span.eventId}\u0000${span.quote}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(span);
    }
  }
  return out;
}

const text = (max: number) => storable(z.string().max(max));

/** Lowercase words joined by single hyphens: `auth`, `token-refresh`. */
export const TAG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Three segments `category:topic:key`, e.g. `bugfix:auth:token-refresh`. */
export const DEDUP_HINT_PATTERN = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?::[a-z0-9]+(?:[._-][a-z0-9]+)*){2}$/;
/** A slash path from the taxonomy root, e.g. `root/frontend/hooks`. */
export const SCHEMA_KEY_PATTERN = /^[a-z0-9]+(?:[_-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[_-][a-z0-9]+)*)*$/;
/** `SHA..SHA`, abbreviated (7+) or full hashes. */
export const COMMIT_RANGE_PATTERN = /^[0-9a-f]{7,40}\.\.[0-9a-f]{7,40}$/;

export const titleSchema = text(ITEM_LIMITS.title).pipe(z.string().min(1));
export const factsSchema = text(ITEM_LIMITS.facts).pipe(z.string().min(1));
export const rationaleSchema = text(ITEM_LIMITS.rationale).nullable();
export const impactSchema = text(ITEM_LIMITS.impact).nullable();
export const filesSchema = z.array(text(ITEM_LIMITS.filePath).pipe(z.string().min(1))).max(ITEM_LIMITS.files);
export const tagsSchema = z
  .array(z.string().max(ITEM_LIMITS.tag).regex(TAG_PATTERN, 'must be lowercase words joined by hyphens'))
  .max(ITEM_LIMITS.tags);
export const schemaKeySchema = z
  .string()
  .max(ITEM_LIMITS.schemaKey)
  .regex(SCHEMA_KEY_PATTERN, 'must be a lowercase slash path such as root/frontend/hooks');
export const dedupHintSchema = z
  .string()
  .max(ITEM_LIMITS.dedupHint)
  .regex(DEDUP_HINT_PATTERN, 'must be category:topic:key in lowercase');
export const commitRangeSchema = z.string().regex(COMMIT_RANGE_PATTERN, 'must be SHA..SHA');
export const confidenceSchema = z.number().min(0).max(1);
export const importanceSchema = z.number().int().min(1).max(5);

/** A verbatim quote from one raw event, the proof an item was not invented. */
export const evidenceSpanSchema = z.strictObject({
  eventId: clientIdSchema,
  quote: text(2000).pipe(z.string().min(1)),
});
export type EvidenceSpan = z.infer<typeof evidenceSpanSchema>;

export const memoryItemSchema = z.strictObject({
  itemId: ulidSchema,
  projectId: ulidSchema,
  type: z.enum(ITEM_TYPES),
  title: titleSchema,
  facts: factsSchema,
  rationale: rationaleSchema,
  impact: impactSchema,
  files: filesSchema,
  schemaKey: schemaKeySchema,
  commitRange: commitRangeSchema.nullable(),
  confidence: confidenceSchema,
  status: z.enum(ITEM_STATUSES),
  evidenceRefs: z.array(clientIdSchema),
  evidenceSpans: z.array(evidenceSpanSchema),
  dedupHint: dedupHintSchema.nullable(),
  tags: tagsSchema,
  importance: importanceSchema.nullable(),
  /** How much its engine ranked an extracted item worth keeping (0–1); null for items a person wrote. */
  salience: z.number().min(0).max(1).nullable(),
  sessionId: z.string().min(1),
  mergedFrom: z.array(ulidSchema),
  supersededBy: ulidSchema.nullable(),
  lastReinforcedAt: z.date().nullable(),
  /** Set when a BugFix is fixed or a Todo done; null while open. */
  resolvedAt: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type MemoryItem = z.infer<typeof memoryItemSchema>;

/** `mergedFrom` → `merged_from`: a field's name as PostgreSQL stores it. */
type StoredName<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${StoredName<Tail>}`
  : S;

/**
 * An item's fields named as stored (`merged_from`, `evidence_spans`), each typed as
 * `MemoryItem` types it: code that reads rows (hygiene's review rules) picks from this instead
 * of listing the columns again. The stored id is `id`, not `item_id`.
 */
export type StoredItemFields = { [K in keyof MemoryItem as StoredName<K & string>]: MemoryItem[K] };

/** `category:topic` of a dedup hint: items sharing it compete for one place in the brain. */
export function dedupGroup(hint: string): string {
  const [category, topic] = hint.split(':');
  return `${category}:${topic}`;
}
