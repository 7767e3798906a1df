import { DAY, NOW, hygieneItem } from './hygiene-item.fixture';
import fc from 'fast-check';
import { ITEM_STATUSES, ITEM_TYPES, STATUS_TRANSITIONS } from '@memex/domain';
import { runRules } from './run-rules';
import { trigramSimilarity } from './trigrams';
import { DEFAULT_HYGIENE_OPTIONS, type HygieneItem, type HygieneOptions, type Transition } from './types';

const item = (over: Partial<HygieneItem> = {}) =>
  hygieneItem({
    type: 'Decision',
    rationaleLength: 40,
    fileCount: 1,
    tagCount: 1,
    confidence: 0.9,
    createdAt: NOW - 200 * DAY,
    statusChangedAt: NOW - 200 * DAY,
    ...over,
  });

/** The one transition of a lone item, or undefined. */
function moveOf(over: Partial<HygieneItem>, options?: HygieneOptions): Transition | undefined {
  const { transitions } = runRules([item(over)], NOW, options);
  expect(transitions.length).toBeLessThanOrEqual(1);
  return transitions[0];
}

describe('stale-by-age', () => {
  const cases: [string, Partial<HygieneItem>, number][] = [
    ['ImplementationFact', { type: 'ImplementationFact' }, 30],
    ['Convention', { type: 'Convention' }, 120],
    ['ArchitectureNote', { type: 'ArchitectureNote' }, 90],
    ['resolved BugFix', { type: 'BugFix', resolvedAt: NOW - 100 * DAY }, 45],
    ['open Todo', { type: 'Todo' }, 60],
    ['resolved Todo', { type: 'Todo', resolvedAt: NOW - 100 * DAY }, 45],
  ];

  it.each(cases)('%s goes stale at exactly its limit and not a millisecond before', (_label, over, days) => {
    expect(moveOf({ ...over, updatedAt: NOW - days * DAY + 1 })).toBeUndefined();
    expect(moveOf({ ...over, updatedAt: NOW - days * DAY })).toMatchObject({
      from: 'active',
      to: 'stale',
      rule: 'stale-by-age',
    });
  });

  it('ImplementationFact at 29d23h59m59.999s stays, at 30 days goes stale', () => {
    const almost = 29 * DAY + 23 * 3_600_000 + 59 * 60_000 + 59_999;
    expect(moveOf({ type: 'ImplementationFact', updatedAt: NOW - almost })).toBeUndefined();
    expect(moveOf({ type: 'ImplementationFact', updatedAt: NOW - 30 * DAY })?.rule).toBe('stale-by-age');
  });

  it('counts from the later of the last update and the last reinforcement', () => {
    const old = { type: 'ImplementationFact' as const, updatedAt: NOW - 100 * DAY };
    expect(moveOf({ ...old, lastReinforcedAt: NOW - 30 * DAY + 1 })).toBeUndefined();
    expect(moveOf({ ...old, lastReinforcedAt: NOW - 30 * DAY })?.rule).toBe('stale-by-age');
    expect(moveOf({ type: 'ImplementationFact', updatedAt: NOW - DAY, lastReinforcedAt: NOW - 90 * DAY })).toBe(
      undefined,
    );
  });

  it('never ages out a Decision, an open BugFix or a CodeMapNode with the default options', () => {
    expect(moveOf({ type: 'Decision', updatedAt: NOW - 5000 * DAY })).toBeUndefined();
    expect(moveOf({ type: 'BugFix', updatedAt: NOW - 5000 * DAY })).toBeUndefined();
    expect(moveOf({ type: 'BugFix', resolvedAt: NOW, updatedAt: NOW - 44 * DAY })).toBeUndefined();
  });

  it('only moves active items', () => {
    expect(moveOf({ type: 'ImplementationFact', status: 'review', updatedAt: NOW - 300 * DAY })).toBeUndefined();
    expect(moveOf({ type: 'ImplementationFact', status: 'stale', updatedAt: NOW - 300 * DAY })).toBeUndefined();
  });

  it('honours custom limits, null meaning never', () => {
    const options: HygieneOptions = {
      ...DEFAULT_HYGIENE_OPTIONS,
      staleAfterDays: { ...DEFAULT_HYGIENE_OPTIONS.staleAfterDays, Decision: 10, BugFixOpen: 5, TodoOpen: null },
    };
    expect(moveOf({ type: 'Decision', updatedAt: NOW - 10 * DAY }, options)?.rule).toBe('stale-by-age');
    expect(moveOf({ type: 'Decision', updatedAt: NOW - 10 * DAY + 1 }, options)).toBeUndefined();
    expect(moveOf({ type: 'BugFix', updatedAt: NOW - 5 * DAY }, options)?.rule).toBe('stale-by-age');
    expect(moveOf({ type: 'Todo', updatedAt: NOW - 5000 * DAY }, options)).toBeUndefined();
  });

  it('says how long and against which limit', () => {
    expect(moveOf({ type: 'ImplementationFact', updatedAt: NOW - 31 * DAY - 5 })?.reason).toBe(
      'not updated or reinforced for 31 days (ImplementationFact limit 30)',
    );
    expect(moveOf({ type: 'BugFix', resolvedAt: NOW, updatedAt: NOW - 50 * DAY })?.reason).toBe(
      'not updated or reinforced for 50 days (resolved BugFix limit 45)',
    );
  });
});

describe('archive-low-confidence', () => {
  const old = { createdAt: NOW - 20 * DAY };

  it('archives strictly below the confidence floor', () => {
    expect(moveOf({ ...old, confidence: 0.4 })).toBeUndefined();
    expect(moveOf({ ...old, confidence: 0.3999 })).toMatchObject({
      from: 'active',
      to: 'archived',
      rule: 'archive-low-confidence',
    });
  });

  it('archives only items strictly older than the age limit', () => {
    expect(moveOf({ confidence: 0.2, createdAt: NOW - 14 * DAY })).toBeUndefined();
    expect(moveOf({ confidence: 0.2, createdAt: NOW - 14 * DAY - 1 })?.rule).toBe('archive-low-confidence');
  });

  it('archives stale items too, but not review or superseded ones', () => {
    expect(moveOf({ ...old, confidence: 0.1, status: 'stale' })).toMatchObject({ from: 'stale', to: 'archived' });
    expect(moveOf({ ...old, confidence: 0.1, status: 'review' })).toBeUndefined();
    expect(moveOf({ ...old, confidence: 0.1, status: 'superseded', statusChangedAt: NOW })).toBeUndefined();
  });

  it('honours custom options', () => {
    const options = { ...DEFAULT_HYGIENE_OPTIONS, lowConfidence: 0.6, lowConfidenceAfterDays: 3 };
    expect(moveOf({ confidence: 0.59, createdAt: NOW - 3 * DAY - 1 }, options)?.rule).toBe('archive-low-confidence');
    expect(moveOf({ confidence: 0.59, createdAt: NOW - 3 * DAY }, options)).toBeUndefined();
    expect(moveOf({ confidence: 0.6, createdAt: NOW - 30 * DAY }, options)).toBeUndefined();
  });

  it('reads the confidence without rounding it up to the floor', () => {
    expect(moveOf({ ...old, confidence: 0.35 })?.reason).toBe('confidence 0.35 below 0.4 and 20 days old (limit 14)');
    expect(moveOf({ ...old, confidence: 0.39999 })?.reason).toMatch(/^confidence 0\.39999 below 0\.4/);
  });
});

describe('archive-superseded', () => {
  it('archives a superseded item once it has been superseded for the limit', () => {
    expect(moveOf({ status: 'superseded', statusChangedAt: NOW - 30 * DAY + 1 })).toBeUndefined();
    expect(moveOf({ status: 'superseded', statusChangedAt: NOW - 30 * DAY })).toMatchObject({
      from: 'superseded',
      to: 'archived',
      rule: 'archive-superseded',
      reason: 'superseded 30 days ago (limit 30)',
    });
  });

  it('honours a custom limit', () => {
    const options = { ...DEFAULT_HYGIENE_OPTIONS, archiveSupersededAfterDays: 7 };
    expect(moveOf({ status: 'superseded', statusChangedAt: NOW - 7 * DAY }, options)?.rule).toBe('archive-superseded');
    expect(moveOf({ status: 'superseded', statusChangedAt: NOW - 7 * DAY + 1 }, options)).toBeUndefined();
  });
});

describe('supersede-replaced and archive-code-map', () => {
  it('supersedes a live item that names its replacement', () => {
    expect(moveOf({ supersededBy: '01JREPLACEMENT0000000000000' })).toMatchObject({
      from: 'active',
      to: 'superseded',
      rule: 'supersede-replaced',
    });
    expect(moveOf({ status: 'stale', supersededBy: '01JREPLACEMENT0000000000000' })?.to).toBe('superseded');
    expect(moveOf({ status: 'review', supersededBy: '01JREPLACEMENT0000000000000' })).toBeUndefined();
  });

  it('archives live CodeMapNode items, however fresh', () => {
    expect(moveOf({ type: 'CodeMapNode', updatedAt: NOW })).toMatchObject({ to: 'archived', rule: 'archive-code-map' });
    expect(moveOf({ type: 'CodeMapNode', status: 'stale' })?.rule).toBe('archive-code-map');
    expect(moveOf({ type: 'CodeMapNode', status: 'review' })).toBeUndefined();
  });
});

describe('reactivate-reinforced', () => {
  const wentStale = NOW - 10 * DAY;
  const stale = { type: 'ImplementationFact' as const, status: 'stale' as const, statusChangedAt: wentStale };

  it('reactivates a stale item reinforced after it went stale, not at the same instant', () => {
    expect(moveOf({ ...stale, lastReinforcedAt: wentStale })).toBeUndefined();
    expect(moveOf({ ...stale, lastReinforcedAt: wentStale + 1 })).toMatchObject({
      from: 'stale',
      to: 'active',
      rule: 'reactivate-reinforced',
    });
  });

  it('leaves it stale when even the reinforcement is past the age limit', () => {
    const longAgo = NOW - 100 * DAY;
    const item = { ...stale, statusChangedAt: longAgo, updatedAt: longAgo - DAY };
    expect(moveOf({ ...item, lastReinforcedAt: NOW - 30 * DAY })).toBeUndefined();
    expect(moveOf({ ...item, lastReinforcedAt: NOW - 30 * DAY + 1 })?.rule).toBe('reactivate-reinforced');
  });

  it('reactivates a reinforced item of a type that never ages', () => {
    expect(moveOf({ type: 'Decision', status: 'stale', statusChangedAt: wentStale, lastReinforcedAt: NOW })?.to).toBe(
      'active',
    );
  });
});

describe('precedence', () => {
  it('applies only the first matching rule', () => {
    const everything = {
      type: 'CodeMapNode' as const,
      confidence: 0.1,
      createdAt: NOW - 100 * DAY,
      updatedAt: NOW - 100 * DAY,
    };
    expect(moveOf({ ...everything, supersededBy: '01JREPLACEMENT0000000000000' })?.rule).toBe('supersede-replaced');
    expect(moveOf(everything)?.rule).toBe('archive-code-map');
    expect(moveOf({ ...everything, type: 'ImplementationFact' })?.rule).toBe('archive-low-confidence');
  });
});

const arbitraryItem: fc.Arbitrary<HygieneItem> = fc
  .record({
    type: fc.constantFrom(...ITEM_TYPES),
    status: fc.constantFrom(...ITEM_STATUSES),
    confidence: fc.constantFrom(0, 0.2, 0.3999, 0.4, 0.7, 1),
    created: fc.integer({ min: 0, max: 400 }),
    updated: fc.integer({ min: 0, max: 400 }),
    reinforced: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
    changed: fc.integer({ min: 0, max: 400 }),
    resolved: fc.boolean(),
    supersededBy: fc.option(fc.constant('01JREPLACEMENT0000000000000'), { nil: null }),
    hint: fc.option(fc.constantFrom('decision:db:a', 'decision:db:b', 'bugfix:auth:x'), { nil: null }),
    facts: fc.constantFrom('Use PostgreSQL for storage.', 'Use SQLite for storage.', 'Tokens expire after an hour.'),
  })
  .map((r) =>
    item({
      type: r.type,
      status: r.status,
      confidence: r.confidence,
      createdAt: NOW - r.created * DAY,
      updatedAt: NOW - r.updated * DAY,
      lastReinforcedAt: r.reinforced === null ? null : NOW - r.reinforced * DAY,
      statusChangedAt: NOW - r.changed * DAY,
      resolvedAt: r.resolved ? NOW - DAY : null,
      supersededBy: r.supersededBy,
      dedupHint: r.hint,
      facts: r.facts,
    }),
  );

describe('every pass', () => {
  it('moves each item at most once, legally, from its current status, in id order', () => {
    fc.assert(
      fc.property(fc.array(arbitraryItem, { minLength: 1, maxLength: 60, size: 'max' }), (items) => {
        const { transitions } = runRules(items, NOW);
        const byId = new Map(items.map((i) => [i.id, i]));
        expect(new Set(transitions.map((t) => t.itemId)).size).toBe(transitions.length);
        for (const t of transitions) {
          expect(t.from).toBe(byId.get(t.itemId)!.status);
          expect(STATUS_TRANSITIONS[t.from]).toContain(t.to);
          expect(t.reason.length).toBeGreaterThan(0);
        }
        const ids = transitions.map((t) => t.itemId);
        expect(ids).toEqual([...ids].sort());
      }),
      { numRuns: 300, endOnFailure: true },
    );
  });

  it('proposes nothing for an item it archives, supersedes or sends to review', () => {
    fc.assert(
      fc.property(fc.array(arbitraryItem, { minLength: 1, maxLength: 60, size: 'max' }), (items) => {
        const { transitions, proposals } = runRules(items, NOW);
        const after = new Map(items.map((i) => [i.id, i.status as string]));
        for (const t of transitions) after.set(t.itemId, t.to);
        for (const p of proposals) {
          for (const id of p.itemIds) expect(['active', 'stale']).toContain(after.get(id));
        }
      }),
      { numRuns: 200, endOnFailure: true },
    );
  });
});

describe('conflicting-facts', () => {
  const hint = 'decision:db:engine';
  const postgres = 'We store everything in PostgreSQL 16 with logical replication.';
  const sqlite = 'Local runs keep their state in one SQLite file next to the binary.';

  it('sends every active member of a disagreeing group to review, and no stale one', () => {
    const a = item({ dedupHint: hint, facts: postgres });
    const b = item({ dedupHint: hint, facts: sqlite });
    const c = item({ dedupHint: hint, facts: sqlite, status: 'stale' });
    const { transitions } = runRules([a, b, c], NOW);
    expect(transitions).toEqual([
      expect.objectContaining({ itemId: a.id, from: 'active', to: 'review', rule: 'conflicting-facts' }),
      expect.objectContaining({ itemId: b.id, from: 'active', to: 'review', rule: 'conflicting-facts' }),
    ]);
    expect(transitions[0]!.reason).toMatch(/^3 live items share the dedup hint decision:db:engine/);
  });

  it('leaves a group whose facts agree, items of other hints and lone items', () => {
    const agree = [
      item({ dedupHint: hint, facts: postgres }),
      item({ dedupHint: hint, facts: `${postgres} ` }),
      item({ dedupHint: hint, facts: postgres.toUpperCase() }),
    ];
    expect(runRules(agree, NOW).transitions).toEqual([]);
    const apart = [item({ dedupHint: hint, facts: postgres }), item({ dedupHint: `${hint}2`, facts: sqlite })];
    expect(runRules(apart, NOW).transitions).toEqual([]);
  });

  it('decides on the items live after the other rules, moving each item only once', () => {
    // b is archived by this pass (low confidence): a has no one left to disagree with.
    const a = item({ dedupHint: hint, facts: postgres });
    const b = item({ dedupHint: hint, facts: sqlite, confidence: 0.1, createdAt: NOW - 30 * DAY });
    expect(runRules([a, b], NOW).transitions.map((t) => t.rule)).toEqual(['archive-low-confidence']);
    // d is reactivated this pass: it still disagrees with c, but keeps its one move.
    const c = item({ dedupHint: hint, facts: postgres });
    const d = item({
      dedupHint: hint,
      facts: sqlite,
      status: 'stale',
      statusChangedAt: NOW - 5 * DAY,
      lastReinforcedAt: NOW,
    });
    expect(runRules([c, d], NOW).transitions.map((t) => [t.itemId, t.rule])).toEqual([
      [c.id, 'conflicting-facts'],
      [d.id, 'reactivate-reinforced'],
    ]);
  });

  it('conflicts strictly below the threshold', () => {
    const a = item({ dedupHint: hint, facts: 'alpha beta gamma delta' });
    const b = item({ dedupHint: hint, facts: 'alpha beta gamma epsilon' });
    // alpha 6 trigrams, beta 5, gamma 6, delta 5 more ("ta " is beta's), epsilon 8: 17 / 30.
    const exact = 17 / 30;
    const at = (conflictSimilarity: number) =>
      runRules([a, b], NOW, { ...DEFAULT_HYGIENE_OPTIONS, conflictSimilarity }).transitions.length;
    expect(at(exact)).toBe(0);
    expect(at(exact + 1e-9)).toBe(2);
  });

  it('finds two dissimilar facts that are each close to a third', () => {
    const base = 'one two three four five six seven eight nine ten';
    const [a, b, c] = [base, `${base} red orange yellow green blue indigo`, `${base} cat dog cow hen pig fox`];
    const options = { ...DEFAULT_HYGIENE_OPTIONS, conflictSimilarity: 0.5 };
    expect(trigramSimilarity(a, b)).toBeGreaterThanOrEqual(0.5);
    expect(trigramSimilarity(a, c)).toBeGreaterThanOrEqual(0.5);
    expect(trigramSimilarity(b, c)).toBeLessThan(0.5);
    const group = [a, b, c].map((facts) => item({ dedupHint: hint, facts }));
    expect(runRules(group, NOW, options).transitions).toHaveLength(3);
    expect(runRules(group.slice(0, 2), NOW, options).transitions).toHaveLength(0);
  });

  it('finds the one dissimilar pair in a large agreeing group', () => {
    const group = Array.from({ length: 200 }, (_, k) => item({ dedupHint: hint, facts: `${postgres} Note ${k % 3}.` }));
    expect(runRules(group, NOW).transitions).toEqual([]);
    group.push(item({ dedupHint: hint, facts: sqlite }));
    expect(runRules(group, NOW).transitions).toHaveLength(201);
  });
});

describe('rules an operator overruled', () => {
  it('skips a held rule and lets the next one apply', () => {
    const replaced = item({
      type: 'ImplementationFact',
      supersededBy: 'X',
      updatedAt: NOW - 400 * DAY,
      lastReinforcedAt: null,
    });
    const held = (itemId: string, rule: string) => itemId === replaced.id && rule === 'supersede-replaced';
    expect(runRules([replaced], NOW).transitions[0]?.rule).toBe('supersede-replaced');
    expect(runRules([replaced], NOW, undefined, held).transitions[0]?.rule).toBe('stale-by-age');
  });

  it('holds conflicts too', () => {
    const a = item({ id: 'A', dedupHint: 'convention:style:x', facts: 'Always use tabs for indentation here.' });
    const b = item({
      id: 'B',
      dedupHint: 'convention:style:x',
      facts: 'Prettier decides spaces; never tabs anywhere.',
    });
    expect(runRules([a, b], NOW).transitions.map((t) => t.itemId)).toEqual(['A', 'B']);
    const held = (itemId: string, rule: string) => itemId === 'A' && rule === 'conflicting-facts';
    expect(runRules([a, b], NOW, undefined, held).transitions.map((t) => t.itemId)).toEqual(['B']);
  });
});
