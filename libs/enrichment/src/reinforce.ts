import {
  ITEM_LIMITS,
  MAX_EVIDENCE_SPANS,
  distinctSpans,
  evidenceRefsOf,
  transition,
  type ItemType,
  type ReinforceSaying,
  type ReinforceTarget,
  type Reinforcement,
} from '@memex/domain';
import { saysWhatItBecame } from './new-state';

/** Types whose items are done once the session says so (a fix landed, a todo finished). */
const RESOLVABLE: ReadonlySet<ItemType> = new Set(['BugFix', 'Todo']);

/** When an item said `resolved` in a window ending `at` was resolved: then, if its type can be. */
export function resolvedAtOf(type: ItemType, resolved: boolean, at: Date): Date | null {
  return RESOLVABLE.has(type) && resolved ? at : null;
}

/**
 * A live item said again under its dedup hint (decideMerge chose `reinforce`): its title, or the
 * newer one where that says what the point has become (`saysWhatItBecame`) and no person wrote
 * the item, the newer facts and confidence, a stale item active again, the files and evidence of
 * both (files to their limit, the newest MAX_EVIDENCE_SPANS spans and the events they quote), the
 * stronger salience of the two sayings, reinforced at the window's end, and resolved then if it
 * was not already. `mergedFrom` is left alone: it names items merged into this one, and the
 * saying never became an item (the history entry records the reinforcement). Nothing here grows
 * with the number of sayings: an item said in every session is read and written, history
 * snapshots included, at the same size the thousandth time as the tenth.
 */
export function reinforce(
  target: ReinforceTarget,
  saying: ReinforceSaying,
  confidence: number,
  at: Date,
): Reinforcement {
  const spans = distinctSpans([...target.evidenceSpans, ...saying.spans]).slice(-MAX_EVIDENCE_SPANS);
  return {
    // A person's title (an item with no salience) is theirs to change.
    title: target.salience !== null && saysWhatItBecame(saying.title) ? saying.title : target.title,
    facts: saying.facts,
    confidence,
    status: target.status === 'stale' && transition('stale', 'active').ok ? 'active' : target.status,
    files: [...new Set([...target.files, ...saying.files])].slice(0, ITEM_LIMITS.files),
    evidenceRefs: evidenceRefsOf(spans),
    evidenceSpans: spans,
    salience: target.salience === null ? null : Math.max(target.salience, saying.salience),
    lastReinforcedAt: at,
    resolvedAt: target.resolvedAt ?? resolvedAtOf(saying.type, saying.resolved, at),
  };
}
