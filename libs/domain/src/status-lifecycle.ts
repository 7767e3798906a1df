import type { ItemStatus } from './memory-item';

/**
 * Legal moves of spec/memory-items.md, plus active → archived: ARCHITECTURE.md lets
 * "deprecate" archive an active item, and hygiene archives low-confidence and code-map
 * items straight from active; and archived → active, a person's `restore` (no rule makes it):
 * archiving is how memory forgets, and a person must be able to take that back.
 */
export const STATUS_TRANSITIONS: Readonly<Record<ItemStatus, readonly ItemStatus[]>> = {
  active: ['stale', 'superseded', 'review', 'archived'],
  stale: ['active', 'archived', 'superseded'],
  review: ['active', 'archived'],
  superseded: ['archived'],
  archived: ['active'],
};

export type TransitionResult =
  | { ok: true; from: ItemStatus; to: ItemStatus }
  | { ok: false; from: ItemStatus; to: ItemStatus; allowed: readonly ItemStatus[] };

export function transition(from: ItemStatus, to: ItemStatus): TransitionResult {
  const allowed = STATUS_TRANSITIONS[from];
  return allowed.includes(to) ? { ok: true, from, to } : { ok: false, from, to, allowed };
}
