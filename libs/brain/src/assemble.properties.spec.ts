import fc from 'fast-check';
import { ITEM_STATUSES, ITEM_TYPES, type MemoryItem } from '@memex/domain';
import { assembleBrain, defaultEstimate } from './assemble';
import { DAY, NOW, item } from './brain-item.fixture';
import { classify } from './classify';
import { compactLine, richLine } from './render';
import { byScore } from './scoring';

const arbitraryItem: fc.Arbitrary<MemoryItem> = fc
  .record({
    type: fc.constantFrom(...ITEM_TYPES),
    status: fc.constantFrom(...ITEM_STATUSES),
    title: fc.oneof(
      fc.string({ minLength: 1, maxLength: 200 }),
      fc.constantFrom('# Heading', '```js', '<!-- x', '## Known Issues'),
    ),
    facts: fc.oneof(fc.string({ minLength: 1, maxLength: 600 }), fc.constant('line\n# not a heading\n```\ncode\n```')),
    confidence: fc.double({ min: 0, max: 1, noNaN: true }),
    importance: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
    ageDays: fc.double({ min: 0, max: 200, noNaN: true }),
    hint: fc.option(fc.constantFrom('decision:db:a', 'decision:db:b', 'bugfix:auth:x', 'convention:style:y'), {
      nil: null,
    }),
    resolved: fc.boolean(),
    schemaKey: fc.constantFrom('root/api', 'root/api/auth', 'root/web', 'root/decisions', 'root/db/migrations'),
    files: fc.array(fc.constantFrom('src/a.ts', 'src/b.ts', 'lib/c.ts'), { maxLength: 3 }),
  })
  .map((r) =>
    item({
      type: r.type,
      status: r.status,
      title: r.title,
      facts: r.facts,
      confidence: r.confidence,
      importance: r.importance,
      updatedAt: new Date(NOW.getTime() - r.ageDays * DAY),
      dedupHint: r.hint,
      resolvedAt: r.resolved ? NOW : null,
      schemaKey: r.schemaKey,
      files: r.files,
    }),
  );

// Mostly tight budgets, where items must be dropped and the choice of which one matters.
/** Full-size sets: small ones always fit, and nothing is ever dropped. */
const itemSets = fc.array(arbitraryItem, { maxLength: 150, size: 'max' });

/** Items only Layer 2 takes: older than 30 days (60 for importance 4), not open bugs or todos. */
const layer2Item: fc.Arbitrary<MemoryItem> = fc
  .record({
    type: fc.constantFrom('Convention', 'ArchitectureNote', 'ImplementationFact', 'Decision') as fc.Arbitrary<
      MemoryItem['type']
    >,
    title: fc.string({ minLength: 1, maxLength: 120 }),
    facts: fc.string({ minLength: 1, maxLength: 400 }),
    confidence: fc.double({ min: 0.4, max: 1, noNaN: true }),
    importance: fc.integer({ min: 1, max: 3 }),
    ageDays: fc.double({ min: 31, max: 89, noNaN: true }),
    schemaKey: fc.constantFrom('root/api', 'root/web', 'root/db/migrations'),
  })
  .map((r) => item({ ...r, updatedAt: new Date(NOW.getTime() - r.ageDays * DAY) }));

const budgets = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 500, max: 2_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 2_000, max: 20_000 }) },
);
const clocks = fc.integer({ min: 0, max: 120 }).map((d) => new Date(NOW.getTime() + d * DAY));

/** The document's own headings: no item text may add to them. */
const OWN_HEADINGS = /^(# Project brain|## (Project Brief|Active Knowledge|Reference Knowledge)|### .+)$/;

describe('assembleBrain properties', () => {
  it('never exceeds the token budget', () => {
    fc.assert(
      fc.property(itemSets, budgets, clocks, (items, tokenBudget, now) => {
        const brain = assembleBrain(items, { tokenBudget }, now);
        expect(brain.tokenEstimate).toBeLessThanOrEqual(tokenBudget);
        expect(defaultEstimate(brain.document)).toBe(brain.tokenEstimate);
      }),
      { numRuns: 300, endOnFailure: true },
    );
  });

  it('never shows superseded, archived or review items', () => {
    fc.assert(
      fc.property(itemSets, budgets, clocks, (items, tokenBudget, now) => {
        const brain = assembleBrain(items, { tokenBudget }, now);
        const byId = new Map(items.map((i) => [i.itemId, i]));
        for (const id of brain.included) expect(['active', 'stale']).toContain(byId.get(id)!.status);
      }),
      { numRuns: 300, endOnFailure: true },
    );
  });

  it('within a layer, never drops a higher-scoring item that would have fit while keeping a lower one', () => {
    // Headings a line may have to pay for: its section's and its layer's.
    const maxHeading =
      cost('## Reference Knowledge') + cost(`### ${'x'.repeat(80)}`) + cost('### Recent Fixes & Known Issues');
    fc.assert(
      fc.property(itemSets, budgets, clocks, (items, tokenBudget, now) => {
        const brain = assembleBrain(items, { tokenBudget }, now);
        const shown = new Set(brain.included);
        const groups = new Map<string, MemoryItem[]>();
        for (const i of items) {
          const layer = classify(i, now);
          if (layer !== 1 && layer !== 2) continue;
          const key = i.dedupHint ? i.dedupHint.split(':').slice(0, 2).join(':') : i.itemId;
          groups.set(key, [...(groups.get(key) ?? []), i]);
        }
        // One item per category:topic can be shown: the best of its group (of equals, the latest).
        const order = byScore(now);
        const latest = byScore(now, { latestOnTies: true });
        const winners = [...groups.values()].map((g) => ({ item: [...g].sort(latest)[0]!, related: g.length - 1 }));
        for (const layer of [1, 2] as const) {
          const inLayer = winners.filter((w) => classify(w.item, now) === layer);
          const lineCost = (w: { item: MemoryItem; related: number }) =>
            cost(layer === 1 ? richLine(w.item, now, w.related) : compactLine(w.item, w.related));
          const unused = layer === 1 ? brain.layers.layer1.unused : brain.layers.layer2.unused;
          expectGreedy(inLayer, shown, unused, lineCost, maxHeading, (a, b) => order(a.item, b.item));
        }
      }),
      { numRuns: 300, endOnFailure: true },
    );
  });

  it('fills Layer 2 best first too', () => {
    fc.assert(
      fc.property(
        fc.array(layer2Item, { minLength: 20, maxLength: 150, size: 'max' }),
        fc.integer({ min: 500, max: 1500 }),
        (items, tokenBudget) => {
          const brain = assembleBrain(items, { tokenBudget, includeProjectBrief: false }, NOW);
          expect(brain.layers.layer1.items).toBe(0);
          const order = byScore(NOW);
          expectGreedy(
            items.map((item) => ({ item, related: 0 })),
            new Set(brain.included),
            brain.layers.layer2.unused,
            (w) => cost(compactLine(w.item, 0)),
            cost('## Reference Knowledge') + cost('### root/db'),
            (a, b) => order(a.item, b.item),
          );
        },
      ),
      { numRuns: 200, endOnFailure: true },
    );
  });

  it('gives byte-identical output for the same input and clock, whatever the input order', () => {
    fc.assert(
      fc.property(itemSets, budgets, clocks, (items, tokenBudget, now) => {
        const a = assembleBrain(items, { tokenBudget, projectName: 'p' }, now);
        const b = assembleBrain([...items].reverse(), { tokenBudget, projectName: 'p' }, now);
        expect(b.document).toBe(a.document);
        expect(b.brainHash).toBe(a.brainHash);
      }),
      { numRuns: 200, endOnFailure: true },
    );
  });

  it('keeps item text inside its item: no heading, fence or HTML block of its own', () => {
    fc.assert(
      fc.property(itemSets, budgets, (items, tokenBudget) => {
        const lines = assembleBrain(items, { tokenBudget }, NOW).document.split('\n');
        for (const line of lines) {
          if (line.startsWith('#')) expect(line).toMatch(OWN_HEADINGS);
          expect(line.startsWith('```')).toBe(false);
          expect(line.startsWith('<')).toBe(false);
          // Inside a list item, text must not open a block of its own either.
          const inItem = /^- (.*)$/.exec(line)?.[1];
          if (inItem !== undefined) expect(inItem).not.toMatch(/^(#{1,6}(\s|$)|~~~|```|<|[-+*=>|] |\d+[.)] )/);
        }
      }),
      { numRuns: 200, endOnFailure: true },
    );
  });
});

const cost = (line: string) => defaultEstimate(`${line}\n`);

type Shown = { item: MemoryItem; related: number };

/**
 * Greedy filling, checked from outside: a dropped item that outscores kept ones did not fit
 * in the room left plus theirs (allowing for the headings it might have had to open).
 */
function expectGreedy(
  inLayer: Shown[],
  shown: Set<string>,
  unused: number,
  lineCost: (w: Shown) => number,
  maxHeading: number,
  order: (a: Shown, b: Shown) => number,
): void {
  for (const d of inLayer.filter((w) => !shown.has(w.item.itemId))) {
    const keptBelow = inLayer.filter((w) => shown.has(w.item.itemId) && order(w, d) > 0);
    if (keptBelow.length === 0) continue;
    const room = unused + keptBelow.reduce((sum, w) => sum + lineCost(w), 0);
    expect(lineCost(d) + maxHeading).toBeGreaterThan(room);
  }
}
