import type { MemoryItem } from '@memex/domain';

/** The fixed clock of the brain specs. */
export const NOW = new Date('2026-11-21T12:00:00Z');
export const DAY = 86_400_000;

let n = 0;
/** An active Decision with a fresh id and text, 40 days old; specs override what they test. */
export function item(over: Partial<MemoryItem> = {}): MemoryItem {
  n += 1;
  const id = `01J${String(n).padStart(23, '0')}`;
  return {
    itemId: id,
    projectId: '01JPROJECT0000000000000000',
    type: 'Decision',
    title: `Item ${n}`,
    facts: `Facts of item ${n}.`,
    rationale: null,
    impact: null,
    files: [],
    schemaKey: 'root/decisions',
    commitRange: null,
    confidence: 0.9,
    status: 'active',
    evidenceRefs: [],
    evidenceSpans: [],
    dedupHint: null,
    tags: [],
    importance: 3,
    salience: null,
    sessionId: 'session',
    mergedFrom: [],
    supersededBy: null,
    lastReinforcedAt: null,
    resolvedAt: null,
    createdAt: new Date(NOW.getTime() - 40 * DAY),
    updatedAt: NOW,
    ...over,
  };
}
