import fc from 'fast-check';
import { ITEM_STATUSES, ITEM_TYPES, type MemoryItem } from '@memex/domain';
import { assembleBrain, defaultEstimate } from './assemble';
import { classify } from './classify';
import { compactLine, richLine } from './render';
import { byScore, recency, score } from './scoring';
import { assembleSummary } from './summary';

const NOW = new Date('2026-11-21T12:00:00Z');
const DAY = 86_400_000;

let n = 0;
function item(over: Partial<MemoryItem> = {}): MemoryItem {
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
      fc.property(
        fc.array(arbitraryItem, { maxLength: 150, size: 'max' }),
        budgets,
        clocks,
        (items, tokenBudget, now) => {
          const brain = assembleBrain(items, { tokenBudget }, now);
          expect(brain.tokenEstimate).toBeLessThanOrEqual(tokenBudget);
          expect(defaultEstimate(brain.document)).toBe(brain.tokenEstimate);
        },
      ),
      { numRuns: 300, endOnFailure: true },
    );
  });

  it('never shows superseded, archived or review items', () => {
    fc.assert(
      fc.property(
        fc.array(arbitraryItem, { maxLength: 150, size: 'max' }),
        budgets,
        clocks,
        (items, tokenBudget, now) => {
          const brain = assembleBrain(items, { tokenBudget }, now);
          const byId = new Map(items.map((i) => [i.itemId, i]));
          for (const id of brain.included) expect(['active', 'stale']).toContain(byId.get(id)!.status);
        },
      ),
      { numRuns: 300, endOnFailure: true },
    );
  });

  it('within a layer, never drops a higher-scoring item that would have fit while keeping a lower one', () => {
    // Headings a line may have to pay for: its section's and its layer's.
    const maxHeading =
      cost('## Reference Knowledge') + cost(`### ${'x'.repeat(80)}`) + cost('### Recent Fixes & Known Issues');
    fc.assert(
      fc.property(
        fc.array(arbitraryItem, { maxLength: 150, size: 'max' }),
        budgets,
        clocks,
        (items, tokenBudget, now) => {
          const brain = assembleBrain(items, { tokenBudget }, now);
          const shown = new Set(brain.included);
          const groups = new Map<string, MemoryItem[]>();
          for (const i of items) {
            const layer = classify(i, now);
            if (layer !== 1 && layer !== 2) continue;
            const key = i.dedupHint ? i.dedupHint.split(':').slice(0, 2).join(':') : i.itemId;
            groups.set(key, [...(groups.get(key) ?? []), i]);
          }
          // One item per category:topic can be shown: the best of its group.
          const order = byScore(now);
          const winners = [...groups.values()].map((g) => ({ item: [...g].sort(order)[0]!, related: g.length - 1 }));
          for (const layer of [1, 2] as const) {
            const inLayer = winners.filter((w) => classify(w.item, now) === layer);
            const lineCost = (w: { item: MemoryItem; related: number }) =>
              cost(layer === 1 ? richLine(w.item, now, w.related) : compactLine(w.item, w.related));
            const unused = layer === 1 ? brain.layers.layer1.unused : brain.layers.layer2.unused;
            expectGreedy(inLayer, shown, unused, lineCost, maxHeading, (a, b) => order(a.item, b.item));
          }
        },
      ),
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
      fc.property(
        fc.array(arbitraryItem, { maxLength: 150, size: 'max' }),
        budgets,
        clocks,
        (items, tokenBudget, now) => {
          const a = assembleBrain(items, { tokenBudget, projectName: 'p' }, now);
          const b = assembleBrain([...items].reverse(), { tokenBudget, projectName: 'p' }, now);
          expect(b.document).toBe(a.document);
          expect(b.brainHash).toBe(a.brainHash);
        },
      ),
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

describe('assembleBrain', () => {
  it('puts recent decisions, open bugs and todos in Layer 1, older stable knowledge in Layer 2, and archives the rest', () => {
    const items = [
      item({ type: 'Decision', title: 'Use PostgreSQL', importance: 5 }),
      item({ type: 'BugFix', title: 'Token refresh race', importance: 4 }),
      item({ type: 'Todo', title: 'Rotate the signing secret', importance: 2 }),
      item({
        type: 'Convention',
        title: 'Old convention',
        updatedAt: new Date(NOW.getTime() - 100 * DAY),
        schemaKey: 'root/conventions',
      }),
      item({ type: 'ImplementationFact', title: 'Ancient work', updatedAt: new Date(NOW.getTime() - 120 * DAY) }),
      item({ type: 'Decision', title: 'Replaced decision', status: 'superseded' }),
      item({ type: 'Decision', title: 'Needs review', status: 'review' }),
      item({ type: 'CodeMapNode', title: 'Route: /api' }),
    ];
    const brain = assembleBrain(items, { tokenBudget: 6000, projectName: 'shop' }, NOW);
    const doc = brain.document;
    expect(doc).toContain('# Project brain: shop');
    expect(doc.indexOf('**Use PostgreSQL**')).toBeLessThan(doc.indexOf('## Reference Knowledge'));
    expect(doc).toContain('### Recent Fixes & Known Issues\n- **Token refresh race**');
    expect(doc).toContain('### Pending Tasks\n- **Rotate the signing secret**');
    expect(doc).toMatch(/## Reference Knowledge\n### root\/conventions\n- Old convention/);
    expect(doc).not.toContain('Ancient work');
    expect(doc).not.toContain('Replaced decision');
    expect(doc).not.toContain('Needs review');
    expect(doc).not.toContain('Route: /api');
    expect(doc).toContain('_3 archived items are not shown: find them with memex_search._');
    expect(brain.layers).toMatchObject({ layer1: { items: 3 }, layer2: { items: 1 }, layer3: { items: 3, tokens: 0 } });
    expect(brain.itemsLoaded).toBe(4);
  });

  it('builds the project brief without any model: stack, 3 key decisions, up to 5 conventions, active areas, open issues', () => {
    const items = [
      item({ type: 'ArchitectureNote', title: 'NestJS services on Fastify', importance: 4 }),
      ...[5, 4, 3, 2].map((importance, i) => item({ type: 'Decision', title: `Decision ${i}`, importance })),
      ...Array.from({ length: 6 }, (_, i) => item({ type: 'Convention', title: `Convention ${i}` })),
      item({
        type: 'ImplementationFact',
        title: 'Cart discounts',
        schemaKey: 'root/cart',
        updatedAt: new Date(NOW.getTime() - 3 * DAY),
      }),
      item({ type: 'BugFix', title: 'Open bug', importance: 4 }),
      item({ type: 'Todo', title: 'Open todo' }),
      item({ type: 'Todo', title: 'Done todo', resolvedAt: NOW }),
    ];
    const doc = assembleBrain(items, { tokenBudget: 6000 }, NOW).document;
    const brief = doc.slice(doc.indexOf('## Project Brief'), doc.indexOf('## Active Knowledge'));
    expect(brief).toContain('- **Stack:** NestJS services on Fastify');
    expect(brief).toContain('- **Key decisions:** Decision 0; Decision 1; Decision 2\n');
    expect(brief.match(/Convention \d/g)).toHaveLength(5);
    expect(brief).toContain('- **Active areas (14 days):** root/cart (1)');
    expect(brief).toContain('- **Open issues:** 1 active bug, 1 pending todo');
  });

  it('never says a title twice: facts that open with the title show what they add past it', () => {
    const items = [
      item({
        title: 'Biome formats the committed Prisma clients',
        facts: 'Biome formats the committed Prisma clients.',
      }),
      item({
        title: 'Gitleaks redacts secrets…',
        facts: 'Gitleaks redacts secrets in place and lets the commit proceed',
      }),
      item({
        type: 'ArchitectureNote',
        importance: 2,
        title: 'Render serves static sites',
        facts: 'Render serves static sites. No Dockerfile.',
      }),
    ];
    const doc = assembleBrain(items, { tokenBudget: 6000 }, NOW).document;
    expect(doc).toContain('- **Biome formats the committed Prisma clients** (conf');
    expect(doc).toContain('- **Gitleaks redacts secrets…**: in place and lets the commit proceed (conf');
    expect(doc).toContain('- Render serves static sites: No Dockerfile. (0.90)');
  });

  it('shows only the best-scoring item of a category:topic, counting the others', () => {
    const items = [
      item({ title: 'Postgres for events', dedupHint: 'decision:db:events', confidence: 0.9 }),
      item({ title: 'Postgres for queues', dedupHint: 'decision:db:queues', confidence: 0.5 }),
      item({ title: 'Redis for cache', dedupHint: 'decision:cache:redis' }),
    ];
    const doc = assembleBrain(items, { tokenBudget: 6000 }, NOW).document;
    expect(doc).toContain('**Postgres for events**');
    expect(doc).toContain('+1 related');
    expect(doc).not.toContain('Postgres for queues');
    expect(doc).toContain('**Redis for cache**');
  });

  it('scores by importance, confidence and recency, and lets unused budget flow down', () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      item({
        type: 'Decision',
        title: `Decision number ${i} with a long enough title`,
        facts: 'x'.repeat(200),
        importance: (i % 5) + 1,
      }),
    );
    const small = assembleBrain(many, { tokenBudget: 800, includeProjectBrief: false }, NOW);
    expect(small.tokenEstimate).toBeLessThanOrEqual(800);
    const withBrief = assembleBrain(many, { tokenBudget: 800 }, NOW);
    // Without a brief, Layer 0's share goes to Layer 1.
    expect(small.layers.layer1.items).toBeGreaterThan(withBrief.layers.layer1.items);
    const shownImportance = small.included.map((id) => many.find((m) => m.itemId === id)!.importance);
    expect(Math.min(...(shownImportance as number[]))).toBe(5);
  });
});

describe('scoring', () => {
  it('decays recency from 1.0 today to 0.1 at 90 days, and no lower after', () => {
    expect(recency(0)).toBe(1);
    expect(recency(45)).toBeCloseTo(0.55, 10);
    expect(recency(90)).toBeCloseTo(0.1, 10);
    expect(recency(400)).toBeCloseTo(0.1, 10);
  });

  it('scores (importance / 5) × confidence × recency, stale at half, importance 3 by default', () => {
    const fresh = item({ importance: 5, confidence: 0.8, updatedAt: NOW });
    expect(score(fresh, NOW)).toBeCloseTo(0.8, 10);
    expect(score({ ...fresh, status: 'stale' }, NOW)).toBeCloseTo(0.4, 10);
    expect(score({ ...fresh, importance: null }, NOW)).toBeCloseTo(0.48, 10);
    expect(score({ ...fresh, updatedAt: new Date(NOW.getTime() - 90 * DAY) }, NOW)).toBeCloseTo(0.08, 10);
  });

  it('counts age from the last reinforcement when it is later than the last update', () => {
    const old = item({ updatedAt: new Date(NOW.getTime() - 80 * DAY), lastReinforcedAt: NOW });
    expect(score(old, NOW)).toBeCloseTo(score(item({ updatedAt: NOW }), NOW), 10);
  });

  it('refuses budgets too small for the header and footer', () => {
    expect(() => assembleBrain([], { tokenBudget: 199 }, NOW)).toThrow(RangeError);
  });

  it('orders Layer 2 by score within each schema-key group', () => {
    const items = [1, 3, 2].map((importance) =>
      item({
        type: 'Convention',
        title: `Rule of importance ${importance}`,
        importance,
        schemaKey: 'root/api',
        updatedAt: new Date(NOW.getTime() - 40 * DAY),
      }),
    );
    const doc = assembleBrain(items, { tokenBudget: 6000 }, NOW).document;
    const at = (n: number) => doc.indexOf(`Rule of importance ${n}`);
    expect([at(3) < at(2), at(2) < at(1)]).toEqual([true, true]);
  });
});

describe('assembleSummary', () => {
  it('carries the brief, recent decisions and known issues within about 1,000 tokens', () => {
    const items = [
      item({ type: 'Decision', title: 'Keep payments behind checkout', rationale: 'No side effects in the cart' }),
      item({ type: 'BugFix', title: 'Discount crash', facts: 'Legacy codes have no rule.' }),
      ...Array.from({ length: 200 }, (_, i) =>
        item({ type: 'Convention', title: `Convention ${i} ${'y'.repeat(100)}` }),
      ),
    ];
    const summary = assembleSummary(items, NOW, { projectName: 'shop' });
    expect(summary.tokenEstimate).toBeLessThanOrEqual(1000);
    expect(summary.document).toContain('# shop: memory summary');
    expect(summary.document).toContain(
      '## Recent decisions\n- Keep payments behind checkout: No side effects in the cart',
    );
    expect(summary.document).toContain('## Known issues\n- Discount crash: Legacy codes have no rule.');
  });
});
