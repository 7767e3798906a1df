import type { ItemStatus, ItemType } from './memory-item';

/**
 * What hygiene passes read and record, declared here so that the repositories that read and
 * record them need nothing of the rules (libs/hygiene re-exports them).
 */

/**
 * What a hygiene pass knows of an item: a lean read of every non-archived item of a project
 * (archived is terminal, so no rule looks at it). Times are epoch milliseconds so a pass over
 * 50,000 items compares numbers, not Dates.
 */
export interface HygieneItem {
  id: string;
  type: ItemType;
  /** active, stale, review or superseded. */
  status: ItemStatus;
  title: string;
  /** The facts, possibly cut to the first FACTS_SAMPLE characters; `factsLength` is the true length. */
  facts: string;
  factsLength: number;
  /** Null when the item has none. */
  rationaleLength: number | null;
  impactLength: number | null;
  fileCount: number;
  tagCount: number;
  confidence: number;
  importance: number | null;
  dedupHint: string | null;
  supersededBy: string | null;
  /** How many evidence spans the item carries (each was verified verbatim when written). */
  evidenceCount: number;
  /** Written by a person through the API: their word stands without quoted evidence. */
  manual: boolean;
  createdAt: number;
  /** Last change of what the item says (hygiene's own status moves do not touch it). */
  updatedAt: number;
  lastReinforcedAt: number | null;
  resolvedAt: number | null;
  /** When the item last changed status (its creation, if never). */
  statusChangedAt: number;
}

/** How much of the facts a pass reads: enough to compare texts, little enough for 50k items. */
export const FACTS_SAMPLE = 400;

export const RULES = [
  'supersede-replaced',
  'archive-code-map',
  'archive-low-confidence',
  'archive-superseded',
  'reactivate-reinforced',
  'stale-by-age',
  'conflicting-facts',
  'near-duplicate',
  'quality',
] as const;
export type RuleName = (typeof RULES)[number];

/** A lifecycle move; `apply` mode makes it, `dry-run` only reports it. */
export interface Transition {
  itemId: string;
  from: ItemStatus;
  to: ItemStatus;
  rule: RuleName;
  /** One sentence a person reads, e.g. "not updated or reinforced for 31 days (limit 30)". */
  reason: string;
}

export interface MergeProposal {
  kind: 'merge';
  rule: 'near-duplicate';
  /** Every item of the group, keepId included, sorted. */
  itemIds: string[];
  /** The item the others would be merged into. */
  keepId: string;
  /** Why they were grouped: the same `category:topic`, or similar text alone. */
  basis: 'dedup-topic' | 'similar-text';
  /** The lowest pairwise similarity (0..1) between keepId and another member. */
  similarity: number;
  reason: string;
}

export type QualityProblem =
  | {
      code: 'too-long';
      field: 'title' | 'facts' | 'rationale' | 'impact' | 'files' | 'tags';
      length: number;
      limit: number;
    }
  | { code: 'decision-without-rationale' }
  | { code: 'no-evidence' };

export interface EditProposal {
  kind: 'edit';
  rule: 'quality';
  itemIds: [string];
  problems: QualityProblem[];
  reason: string;
}

export type Proposal = MergeProposal | EditProposal;

/**
 * The fields a hygiene change may touch, and so the only ones a revert writes back. They are
 * named as stored: a change records them so, and a revert sets them again.
 */
export const REVERTIBLE_FIELDS = [
  'status',
  'superseded_by',
  'merged_from',
  'files',
  'tags',
  'evidence_refs',
  'evidence_spans',
  'confidence',
  'importance',
  'title',
  'facts',
  'rationale',
  'impact',
] as const;
export type RevertibleField = (typeof REVERTIBLE_FIELDS)[number];
export type ChangeFields = Partial<Record<RevertibleField, unknown>>;

/** JSON with object keys sorted, so values read back from jsonb compare equal to what was written. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** The values of `fields` in an item, as JSON would hold them. */
export function pickFields(item: object, fields: readonly string[]): ChangeFields {
  return Object.fromEntries(fields.map((f) => [f, (item as Record<string, unknown>)[f] ?? null]));
}
