import type { Proposal, Transition } from '@memex/domain';

export {
  FACTS_SAMPLE,
  RULES,
  type EditProposal,
  type HygieneItem,
  type MergeProposal,
  type Proposal,
  type QualityProblem,
  type RuleName,
  type Transition,
} from '@memex/domain';

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
