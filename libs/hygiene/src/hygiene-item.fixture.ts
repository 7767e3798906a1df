import type { HygieneItem } from './types';

/** The fixed clock of the hygiene specs. */
export const NOW = Date.parse('2026-11-21T12:00:00Z');
export const DAY = 86_400_000;

let n = 0;

/** A live, evidenced ImplementationFact with a fresh id and text; specs override what they test. */
export function hygieneItem(over: Partial<HygieneItem> = {}): HygieneItem {
  n += 1;
  return {
    id: `01J${String(n).padStart(23, '0')}`,
    type: 'ImplementationFact',
    status: 'active',
    title: `Item ${n}`,
    facts: `Facts of item ${n}.`,
    factsLength: 20,
    rationaleLength: null,
    impactLength: null,
    fileCount: 0,
    tagCount: 0,
    confidence: 0.8,
    importance: 3,
    dedupHint: null,
    supersededBy: null,
    evidenceCount: 1,
    createdAt: NOW - 10 * DAY,
    updatedAt: NOW - DAY,
    lastReinforcedAt: null,
    resolvedAt: null,
    statusChangedAt: NOW - 10 * DAY,
    manual: false,
    ...over,
  };
}
