import { z } from 'zod';
import {
  ITEM_LIMITS,
  ITEM_TYPES,
  confidenceSchema,
  dedupHintSchema,
  importanceSchema,
  schemaKeySchema,
  tagsSchema,
  toValidationIssues,
} from '@memex/domain';
import { candidateItemSchema, type CandidateItem } from '../candidate';
import { dedupHintFor, schemaKeyFor } from '../taxonomy';
import { asTitle, truncateWords } from '../text';

/** Models never make code-map nodes: those come from scanning code, not conversations. */
const MODEL_ITEM_TYPES = ITEM_TYPES.filter((t) => t !== 'CodeMapNode') as [string, ...string[]];

/**
 * What a model is asked to answer: the candidate schema, one source, with what Memex can
 * derive itself (schema key, dedup hint, importance, confidence, tags) left optional, and
 * without what only Memex decides (salience, commit range).
 */
export const modelItemSchema = candidateItemSchema.omit({ salience: true, commitRange: true }).extend({
  type: z.enum(MODEL_ITEM_TYPES),
  schemaKey: schemaKeySchema.optional(),
  dedupHint: dedupHintSchema.optional(),
  importance: importanceSchema.optional(),
  confidence: confidenceSchema.optional(),
});
export const modelOutputSchema = z.object({ items: z.array(modelItemSchema) });

/** The output schema as JSON Schema, for endpoints that take `response_format: json_schema`. */
export const MODEL_OUTPUT_JSON_SCHEMA = z.toJSONSchema(modelOutputSchema, { io: 'input' }) as Record<string, unknown>;

/** Fields a model may get wrong without losing the item: Memex derives them instead. */
const DERIVABLE: Record<string, z.ZodType> = {
  schemaKey: schemaKeySchema,
  dedupHint: dedupHintSchema,
  importance: importanceSchema,
  confidence: confidenceSchema,
  tags: tagsSchema,
};

export type ParsedOutput = { ok: true; items: CandidateItem[]; dropped: number } | { ok: false; problem: string };

/**
 * The JSON in a model's answer. Small local models wrap it in `<think>…</think>`, code fences
 * or prose before and after; the first complete JSON value in what is left is the answer.
 */
export function jsonIn(content: string): unknown {
  const text = content
    .replace(/<think>[\s\S]*?(?:<\/think>|$)/gi, ' ')
    .replace(/```(?:json|JSON)?/g, ' ')
    .trim();
  for (let start = 0; start < text.length; start += 1) {
    const open = text[start];
    if (open !== '{' && open !== '[') continue;
    const end = closingIndex(text, start);
    if (end < 0) break;
    try {
      return JSON.parse(text.slice(start, end + 1));
    } catch {
      // A brace inside prose: look further.
    }
  }
  throw new SyntaxError('no complete JSON object or array in the answer');
}

/** Where the JSON value opened at `start` closes, skipping what stands inside strings; -1 when it never does. */
function closingIndex(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** `{items: […]}`, a bare array of items, or a single item all read as a list of items. */
function itemsOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (Array.isArray(record.items)) return record.items;
    if (typeof record.type === 'string' && 'title' in record) return [record];
  }
  return undefined;
}

/** One model item made whole: derivable fields that are missing or wrong are derived, long text cut to its limit. */
function normalise(raw: unknown): { item: CandidateItem } | { issues: string[] } {
  const item = raw && typeof raw === 'object' ? { ...(raw as Record<string, unknown>) } : {};
  for (const [field, schema] of Object.entries(DERIVABLE)) {
    if (field in item && !schema.safeParse(item[field]).success) delete item[field];
  }
  if (typeof item.title === 'string') item.title = asTitle(item.title, ITEM_LIMITS.title);
  if (typeof item.facts === 'string') item.facts = truncateWords(item.facts, ITEM_LIMITS.facts);
  if (typeof item.rationale === 'string') item.rationale = truncateWords(item.rationale, ITEM_LIMITS.rationale);
  const shaped = modelItemSchema.safeParse(item);
  if (!shaped.success) return { issues: toValidationIssues(shaped.error).map((i) => `${i.path}: ${i.message}`) };
  const m = shaped.data;
  const type = m.type as CandidateItem['type'];
  const whole = candidateItemSchema.safeParse({
    ...m,
    schemaKey: m.schemaKey ?? schemaKeyFor(type, m.files),
    dedupHint: m.dedupHint ?? dedupHintFor(type, m.title, m.files),
    importance: m.importance ?? 3,
    confidence: m.confidence ?? 0.7,
  });
  return whole.success
    ? { item: whole.data }
    : { issues: toValidationIssues(whole.error).map((i) => `${i.path}: ${i.message}`) };
}

/**
 * A model's answer as candidates. Items that cannot be made whole are dropped; the answer is
 * a problem (worth one repair round) only when it holds no JSON, or no item survives while
 * some were given.
 */
export function parseModelOutput(content: string): ParsedOutput {
  let value: unknown;
  try {
    value = jsonIn(content);
  } catch (error) {
    return { ok: false, problem: `it is not valid JSON (${(error as Error).message})` };
  }
  const raw = itemsOf(value);
  if (!raw) return { ok: false, problem: 'it does not match the schema: items: expected an array of items' };
  const items: CandidateItem[] = [];
  const problems: string[] = [];
  raw.forEach((entry, i) => {
    const parsed = normalise(entry);
    if ('item' in parsed) items.push(parsed.item);
    else problems.push(...parsed.issues.map((issue) => `items[${i}].${issue}`));
  });
  if (items.length === 0 && raw.length > 0) {
    return { ok: false, problem: `it does not match the schema: ${problems.slice(0, 5).join('; ')}` };
  }
  return { ok: true, items, dropped: raw.length - items.length };
}
