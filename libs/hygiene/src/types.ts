import type { ItemStatus, ItemType } from '@memex/domain';

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

export interface HygieneOptions {
  /**
   * Days without an update or reinforcement after which an active item goes stale, by
   * type and, for Todo and BugFix, by whether it is resolved. Null: never by age.
   */
  staleAfterDays: {
    Decision: number | null;
    Convention: number | null;
    ArchitectureNote: number | null;
    ImplementationFact: number | null;
    CodeMapNode: number | null;
    BugFixOpen: number | null;
    BugFixResolved: number | null;
    TodoOpen: number | null;
    TodoResolved: number | null;
  };
  /** A superseded item is archived this many days after it became superseded. */
  archiveSupersededAfterDays: number;
  /** Below this confidence (strictly) and older than `lowConfidenceAfterDays`, an item is archived. */
  lowConfidence: number;
  lowConfidenceAfterDays: number;
  /** Trigram similarity at or above which two items of one type are near-duplicates regardless of hint. */
  duplicateSimilarity: number;
  /**
   * Within one `category:topic` (same type), the similarity at or above which two items are
   * near-duplicates. 0: sharing the topic is enough, as the spec's dedup groups have it (the
   * brain shows one item per topic, so the others are only seen once merged into it).
   */
  topicDuplicateSimilarity: number;
  /** Two live items with the same full dedup hint whose facts are less similar than this conflict. */
  conflictSimilarity: number;
}

export const DEFAULT_HYGIENE_OPTIONS: HygieneOptions = {
  staleAfterDays: {
    Decision: null,
    Convention: 120,
    ArchitectureNote: 90,
    ImplementationFact: 30,
    CodeMapNode: null,
    BugFixOpen: null,
    BugFixResolved: 45,
    TodoOpen: 60,
    TodoResolved: 45,
  },
  archiveSupersededAfterDays: 30,
  lowConfidence: 0.4,
  lowConfidenceAfterDays: 14,
  duplicateSimilarity: 0.75,
  topicDuplicateSimilarity: 0,
  conflictSimilarity: 0.5,
};

export interface HygieneResult {
  transitions: Transition[];
  proposals: Proposal[];
}
