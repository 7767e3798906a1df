import { conflictTransitions } from './conflicts';
import { isLive, lifecycleTransition, type HeldRule } from './lifecycle-rules';
import { nearDuplicateProposals } from './near-duplicates';
import { qualityProposal } from './quality';
import {
  DEFAULT_HYGIENE_OPTIONS,
  type EditProposal,
  type HygieneItem,
  type HygieneOptions,
  type HygieneResult,
  type Transition,
} from './types';

const byItemId = (a: Transition, b: Transition) => (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0);

/**
 * One hygiene pass over a project's non-archived items at `now` (epoch ms). Each item moves
 * at most once, by the first rule of RULES that matches; conflicts are judged among the items
 * live after the other moves, and proposals among the items still live after every move, so
 * nothing is proposed for an item the same pass archives, supersedes or sends to review.
 */
export function runRules(
  items: HygieneItem[],
  now: number,
  options: HygieneOptions = DEFAULT_HYGIENE_OPTIONS,
  /** Rules an operator overruled for an item; a held rule is skipped and the next may apply. */
  held: HeldRule = () => false,
): HygieneResult {
  const transitions: Transition[] = [];
  const moved = new Set<string>();
  const live: HygieneItem[] = [];
  for (const item of items) {
    const move = lifecycleTransition(item, now, options, held);
    if (move) {
      transitions.push(move);
      moved.add(move.itemId);
    }
    if (isLive(move ? move.to : item.status)) live.push(item);
  }

  const conflicts = conflictTransitions(live, moved, options.conflictSimilarity).filter((t) => !held(t.itemId, t.rule));
  transitions.push(...conflicts);
  const reviewed = new Set(conflicts.map((t) => t.itemId));
  const remaining = live.filter((item) => !reviewed.has(item.id));

  const edits = remaining
    .map(qualityProposal)
    .filter((p): p is EditProposal => p !== null)
    .sort((a, b) => (a.itemIds[0] < b.itemIds[0] ? -1 : a.itemIds[0] > b.itemIds[0] ? 1 : 0));
  return {
    transitions: transitions.sort(byItemId),
    proposals: [...nearDuplicateProposals(remaining, options), ...edits],
  };
}
