import { ITEM_LIMITS, MAX_EVIDENCE_SPANS, distinctSpans, evidenceRefsOf } from '@memex/domain';

/** What a merge combines of the items it folds into the one it keeps. */
export interface MergeSide {
  id: string;
  files: string[];
  tags: string[];
  evidenceRefs: string[];
  evidenceSpans: Array<{ eventId: string; quote: string }>;
  confidence: number;
  importance: number | null;
  mergedFrom: string[];
}

/** Each value once, first seen first. */
const union = (lists: string[][]): string[] => [...new Set(lists.flat())];

/**
 * The kept item after a merge: the others' ids recorded in mergedFrom, their files, tags and
 * evidence added (within the item limits, the kept item's own first), the highest confidence
 * and importance. What the kept item says is left as it is: an operator edits it if needed.
 */
export function mergedKeep(keep: MergeSide, others: MergeSide[]): Omit<MergeSide, 'id'> {
  const all = [keep, ...others];
  const importances = all.map((i) => i.importance).filter((i): i is number => i !== null);
  const spans = distinctSpans(all.flatMap((i) => i.evidenceSpans)).slice(0, MAX_EVIDENCE_SPANS);
  return {
    files: union(all.map((i) => i.files)).slice(0, ITEM_LIMITS.files),
    tags: union(all.map((i) => i.tags)).slice(0, ITEM_LIMITS.tags),
    // Refs follow the spans kept, as a reinforcement's do.
    evidenceRefs: evidenceRefsOf(spans, union(all.map((i) => i.evidenceRefs))),
    evidenceSpans: spans,
    confidence: Math.max(...all.map((i) => i.confidence)),
    importance: importances.length > 0 ? Math.max(...importances) : null,
    mergedFrom: union([keep.mergedFrom, ...others.map((o) => [...o.mergedFrom, o.id])]),
  };
}
