import type { ItemStatus, ItemType } from '@memex/domain';
import type { CandidateItem } from './candidate';
import { normalizeWhitespace } from './text';

/** What the write path needs to know of an existing item with the same dedup hint. */
export interface ExistingItem {
  id: string;
  type: ItemType;
  status: ItemStatus;
  facts: string;
  confidence: number;
}

export type MergeDecision =
  | { action: 'create' }
  | { action: 'reinforce'; target: ExistingItem; confidence: number }
  | { action: 'supersede'; target: ExistingItem };

/** Decisions and conventions are replaced when their content changes; other items are refreshed. */
const SUPERSEDABLE: ReadonlySet<ItemType> = new Set(['Decision', 'Convention']);

function sameContent(a: string, b: string): boolean {
  const norm = (s: string) =>
    normalizeWhitespace(s)
      .toLowerCase()
      .replace(/[.!]+$/, '');
  return norm(a) === norm(b);
}

/** Reinforcement closes a quarter of the gap to certainty, up to 0.99, and never lowers confidence. */
export function reinforcedConfidence(existing: number, incoming: number): number {
  const base = Math.max(existing, incoming);
  const raised = Math.round(Math.min(0.99, base + (1 - base) * 0.25) * 1000) / 1000;
  // Evidence adds up to 0.99 at most, but a confidence already above that (a manual item) stays.
  return Math.max(existing, raised);
}

/**
 * A candidate whose dedup hint matches a live (active or stale) item reinforces it rather
 * than adding a row — unless it is a Decision or Convention whose content changed, which
 * supersedes the old item.
 */
export function decideMerge(candidate: CandidateItem, existing: ExistingItem | undefined): MergeDecision {
  if (!existing || (existing.status !== 'active' && existing.status !== 'stale')) return { action: 'create' };
  if (
    SUPERSEDABLE.has(candidate.type) &&
    existing.type === candidate.type &&
    !sameContent(existing.facts, candidate.facts)
  ) {
    return { action: 'supersede', target: existing };
  }
  return {
    action: 'reinforce',
    target: existing,
    confidence: reinforcedConfidence(existing.confidence, candidate.confidence),
  };
}
