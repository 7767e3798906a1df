import { ITEM_LIMITS, MAX_EVIDENCE_SPANS, distinctSpans, type EvidenceSpan } from '@memex/domain';
import type { CandidateItem } from './candidate';
import { decideMerge, type ExistingItem } from './merge-policy';
import { planSessionCap, salienceOf, type HeldItem } from './session-cap';

/** A candidate whose evidence was found in the events, with the spans that count. */
export interface VerifiedItem {
  candidate: CandidateItem;
  spans: EvidenceSpan[];
}

/** A live item of the project whose dedup hint a candidate of the window shares. */
export type StoredItem = ExistingItem;

/** What to do to the store for one dedup hint of the window. */
export type WindowStep =
  | { action: 'create'; item: VerifiedItem }
  | { action: 'supersede'; item: VerifiedItem; target: string }
  | { action: 'reinforce'; item: VerifiedItem; target: string; confidence: number };

/** What a window's write did to the store, item by item. */
export interface WindowCounts {
  created: number;
  reinforced: number;
  superseded: number;
  /** New items the session had no room for, and held items they displaced (archived). */
  capped: number;
  displaced: number;
  /** Items archived because the person rejected the conclusion they rest on. */
  retracted: number;
}

export const NO_COUNTS: Readonly<WindowCounts> = {
  created: 0,
  reinforced: 0,
  superseded: 0,
  capped: 0,
  displaced: 0,
  retracted: 0,
};

export const WINDOW_COUNTS = Object.keys(NO_COUNTS) as Array<keyof WindowCounts>;

export interface WindowPlan {
  /** In the order the window first named each dedup hint; creates the cap had no room for are left out. */
  steps: WindowStep[];
  /** New items the session had no room for. */
  capped: number;
  /** Items the session held that more salient new ones push out (archived). */
  displaced: string[];
}

export interface WindowPlanInput {
  /** The window's verified candidates, in the order the engine gave them. */
  items: readonly VerifiedItem[];
  /** The project's live item for each dedup hint the window names, as stored now. */
  live: ReadonlyMap<string, StoredItem>;
  /** The session's live extracted items, as the cap weighs them. */
  held: readonly HeldItem[];
  /** The most extracted items a session keeps; 0 keeps everything. */
  cap: number;
}

/**
 * Decides a window's writes before any is made, so that every decision sees the ones before
 * it: candidates sharing a dedup hint become one write (a later saying reinforces or replaces
 * an earlier one of the same window), an item the window reinforces is never displaced by the
 * cap in the same breath, and a replacement takes room in the session that writes it.
 */
export function planWindow(input: WindowPlanInput): WindowPlan {
  const byHint = new Map<string, WindowStep>();
  for (const item of input.items) {
    const hint = item.candidate.dedupHint;
    const earlier = byHint.get(hint);
    byHint.set(hint, earlier ? fold(earlier, item) : firstStep(item, input.live.get(hint)));
  }
  const steps = [...byHint.values()];
  return capSteps(steps, input.held, input.cap > 0 ? input.cap : Infinity);
}

function firstStep(item: VerifiedItem, stored: StoredItem | undefined): WindowStep {
  const decision = decideMerge(item.candidate, stored);
  if (decision.action === 'create') return { action: 'create', item };
  if (decision.action === 'supersede') return { action: 'supersede', item, target: decision.target.id };
  return { action: 'reinforce', item, target: decision.target.id, confidence: decision.confidence };
}

/** A later candidate of the window with the same hint, judged against what the earlier ones made. */
function fold(step: WindowStep, item: VerifiedItem): WindowStep {
  const current: ExistingItem = {
    id: step.action === 'create' ? '' : step.target,
    type: step.item.candidate.type,
    status: 'active',
    facts: step.item.candidate.facts,
    confidence: step.action === 'reinforce' ? step.confidence : step.item.candidate.confidence,
  };
  const decision = decideMerge(item.candidate, current);
  if (decision.action === 'supersede') {
    // Changed within one window: the stored item is replaced by the last saying, and a saying
    // made in this same window never becomes an item of its own.
    return step.action === 'create' ? { action: 'create', item } : { action: 'supersede', item, target: step.target };
  }
  const merged = mergeSayings(step.item, item);
  const confidence = decision.action === 'reinforce' ? decision.confidence : current.confidence;
  if (step.action === 'reinforce') return { ...step, item: merged, confidence };
  return { ...step, item: { ...merged, candidate: { ...merged.candidate, confidence } } };
}

/** Two sayings of one item: the later's words, the evidence, files and worth of both. */
function mergeSayings(earlier: VerifiedItem, later: VerifiedItem): VerifiedItem {
  const a = earlier.candidate;
  const b = later.candidate;
  return {
    candidate: {
      ...b,
      files: [...new Set([...a.files, ...b.files])].slice(0, ITEM_LIMITS.files),
      importance: Math.max(a.importance, b.importance),
      resolved: a.resolved || b.resolved,
      salience: Math.max(salienceOf(a), salienceOf(b)),
    },
    spans: distinctSpans([...earlier.spans, ...later.spans]).slice(-MAX_EVIDENCE_SPANS),
  };
}

/**
 * The session keeps its `room` most salient items. Items this window reinforces stay and take
 * room; a replacement always takes the room of what it replaces (or new room, when it replaces
 * another session's item); new items compete with the rest of what the session holds.
 */
function capSteps(steps: WindowStep[], held: readonly HeldItem[], room: number): WindowPlan {
  const heldIds = new Set(held.map((h) => h.id));
  const pinned = new Set<string>();
  const replaced = new Set<string>();
  let replacements = 0;
  for (const step of steps) {
    if (step.action === 'reinforce' && heldIds.has(step.target)) pinned.add(step.target);
    if (step.action === 'supersede') {
      replacements += 1;
      replaced.add(step.target);
    }
  }
  const competing = held.filter((h) => !pinned.has(h.id) && !replaced.has(h.id));
  const creates = steps.filter((s) => s.action === 'create');
  const plan = planSessionCap(
    competing,
    creates.map((s) => salienceOf(s.item.candidate)),
    Math.max(0, room - pinned.size - replacements),
  );
  const admitted = new Set(plan.admitted.map((i) => creates[i]!));
  return {
    steps: steps.filter((s) => s.action !== 'create' || admitted.has(s)),
    capped: creates.length - admitted.size,
    displaced: plan.displaced,
  };
}
