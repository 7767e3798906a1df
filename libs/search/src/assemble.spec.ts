import fc from 'fast-check';
import { assembleContext } from './assemble';
import type { AssemblyRequest, PackCandidate, PackEntity, PackPattern } from './pack-request';
import { resolveStrategy } from './strategy';

const estimate = (s: string) => Math.ceil(s.length / 4);
const NOW = Date.UTC(2026, 0, 10);
const HOUR = 3_600_000;

const item = (itemId: string, over: Partial<PackCandidate> = {}): PackCandidate => ({
  itemId,
  type: 'ImplementationFact',
  title: `Title ${itemId}`,
  facts: `Facts about ${itemId}. More detail follows here for a while.`,
  rationale: null,
  files: [],
  status: 'active',
  relevance: 1,
  ...over,
});
const entity = (name: string, over: Partial<PackEntity> = {}): PackEntity => ({
  entityId: name,
  kind: 'file',
  name,
  mentions: 5,
  itemMentions: 1,
  lastSeenAt: NOW - HOUR,
  salience: 0.5,
  mentioned: false,
  ...over,
});
const pattern: PackPattern = {
  signature: 'Error: Cannot find module "…"',
  occurrences: 3,
  sessions: 2,
  lastSeenAt: NOW - 2 * HOUR,
  fixes: [{ summary: 'running `npm i zod`', count: 2, eventIds: ['ev-7', 'ev-9'] }],
  match: 1,
};

const base = (over: Partial<AssemblyRequest> = {}): AssemblyRequest => ({
  query: 'fix Cannot find module zod',
  maxTokens: 2000,
  now: NOW,
  strategy: resolveStrategy('fix'),
  candidates: [item('a'), item('b', { relevance: 0.5 })],
  ...over,
});

describe('assembleContext', () => {
  it('shows every source as its component type, the stack first and recent events last', () => {
    const pack = assembleContext(
      base({
        recent: [{ eventId: 'ev-1', type: 'error', occurredAt: NOW - HOUR, content: 'Cannot find module zod' }],
        entities: [entity('src/a.ts', { mentioned: true })],
        relations: [
          {
            kind: 'edited_with',
            weight: 2,
            depth: 1,
            source: { kind: 'file', name: 'src/a.ts' },
            target: { kind: 'file', name: 'src/b.ts' },
          },
        ],
        patterns: [pattern],
        stack: {
          root: { id: 'root', goal: 'Ship 1.0' },
          path: [{ id: 'todo:1', goal: 'Fix the build', status: 'active' }],
          done: [{ id: 'todo:0', goal: 'Bump deps' }],
        },
      }),
    );
    expect(pack.components.map((c) => c.type)).toEqual([
      'custom',
      'custom',
      'custom',
      'semantic',
      'semantic',
      'entity',
      'relation',
      'pattern',
      'recent',
    ]);
    expect(pack.content.split('\n')[1]).toBe(
      '_intent: fix · 2 items · 1 recent event · 3 tasks · 1 entity · 1 relation · 1 pattern_',
    );
    const p = pack.components.find((c) => c.type === 'pattern')!;
    expect(p.content).toBe(
      '- _pattern:_ Error: Cannot find module "…" — seen 3 times in 2 sessions; fixed by running `npm i zod` (2×) _Evidence:_ ev-7, ev-9',
    );
    expect(p.evidence).toEqual(['ev-7', 'ev-9']);
    expect(pack.components.slice(0, 3).map((c) => c.content)).toEqual([
      '- _goal:_ Ship 1.0',
      '- _doing:_ Fix the build',
      '- _done:_ Bump deps',
    ]);
    expect(pack.strategy).toEqual(resolveStrategy('fix'));
    expect(pack.truncated).toBe(false);
  });

  it('weighs salience and recency as the strategy says', () => {
    const entities = [
      entity('old-but-central.ts', { salience: 0.9, lastSeenAt: NOW - 30 * 24 * HOUR }),
      entity('fresh.ts', { salience: 0.1, lastSeenAt: NOW }),
    ];
    const order = (weights: { recencyWeight: number; salienceWeight: number }) =>
      assembleContext(
        base({ candidates: [], entities, strategy: resolveStrategy('question', { relevanceWeight: 0, ...weights }) }),
      ).components.map((c) => c.source);
    expect(order({ recencyWeight: 0, salienceWeight: 1 })).toEqual(['old-but-central.ts', 'fresh.ts']);
    expect(order({ recencyWeight: 1, salienceWeight: 0 })).toEqual(['fresh.ts', 'old-but-central.ts']);
  });

  it('keeps each source to its share first, then fills what is left by score', () => {
    const entities = Array.from({ length: 30 }, (_, i) =>
      entity(`src/e${String(i).padStart(2, '0')}.ts`, { salience: 1, mentioned: true }),
    );
    const candidates = Array.from({ length: 30 }, (_, i) =>
      item(`i${String(i).padStart(2, '0')}`, { relevance: 0.01 }),
    );
    const strategy = resolveStrategy('question', {
      budgetAllocation: { semantic: 50, entity: 10, relation: 0, pattern: 0, recent: 0 },
    });
    const pack = assembleContext(base({ maxTokens: 600, candidates, entities, strategy }));
    const tokens = (type: string) =>
      pack.components.filter((c) => c.type === type).reduce((s, c) => s + c.tokens + 1, 0);
    // Entities score higher, yet items kept their half of the budget.
    expect(tokens('semantic')).toBeGreaterThanOrEqual(300 - 40);
    expect(tokens('entity')).toBeGreaterThan(60);
    expect(pack.tokenCount).toBeLessThanOrEqual(600);
  });

  it('compresses the lowest-scored items to their first sentence when only that fits', () => {
    const long = 'First sentence stays. ' + 'filler words '.repeat(40);
    const candidates = [item('top', { facts: long }), item('low', { facts: long, relevance: 0.2 })];
    const whole = assembleContext(base({ candidates, maxTokens: 4000 }));
    const budget = whole.tokenCount - Math.floor(whole.components[1]!.tokens / 2);
    const pack = assembleContext(base({ candidates, maxTokens: budget }));
    expect(pack.components.map((c) => [c.source, c.compressed ?? false])).toEqual([
      ['top', false],
      ['low', true],
    ]);
    expect(pack.components[1]!.content).toBe('- **[ImplementationFact] Title low** — First sentence stays.');
    expect(pack.truncated).toBe(true);
    const off = assembleContext(base({ candidates, maxTokens: budget, compress: false }));
    expect(off.components.map((c) => c.source)).toEqual(['top']);
  });

  it('never exceeds the budget with every source offered, for any budget', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.constantFrom('fix', 'explain', 'question', 'action' as const),
        (maxTokens, intent) => {
          const pack = assembleContext(
            base({
              maxTokens,
              strategy: resolveStrategy(intent),
              candidates: Array.from({ length: 12 }, (_, i) =>
                item(`i${i}`, { relevance: 1 / (i + 1), facts: 'word '.repeat(i * 10) + '.' }),
              ),
              entities: Array.from({ length: 8 }, (_, i) => entity(`f${i}.ts`, { salience: i / 8 })),
              patterns: [pattern],
              recent: Array.from({ length: 5 }, (_, i) => ({
                eventId: `e${i}`,
                type: 'prompt',
                occurredAt: NOW - i * HOUR,
                content: 'x '.repeat(80),
              })),
              stack: { root: { id: 'root', goal: 'goal '.repeat(30) }, path: [], done: [] },
            }),
          );
          expect(pack.tokenCount).toBe(estimate(pack.content));
          expect(pack.tokenCount).toBeLessThanOrEqual(maxTokens);
          for (const c of pack.components) {
            expect(pack.content).toContain(c.content);
            expect(c.relevanceScore).toBeGreaterThanOrEqual(0);
            expect(c.relevanceScore).toBeLessThanOrEqual(1);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('the task stack in a small budget', () => {
  it('always shows the root goal, cut to its share', () => {
    const goal =
      'Refactor the payment retry scheduler so that webhooks are retried with backoff and jitter, and make sure the idempotency keys survive a deploy of the sender service';
    const pack = assembleContext(base({ maxTokens: 600, stack: { root: { id: 'root', goal }, path: [], done: [] } }));
    const first = pack.components[0]!;
    expect(first).toMatchObject({ type: 'custom', source: 'root', compressed: true });
    expect(first.content).toMatch(/^- _goal:_ Refactor the payment retry/);
    expect(first.tokens + 1).toBeLessThanOrEqual(30);
  });
});
