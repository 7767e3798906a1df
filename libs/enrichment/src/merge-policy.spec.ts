import fc from 'fast-check';
import { type ItemStatus, type ItemType } from '@memex/domain';
import { candidateItemSchema, type CandidateItem } from './candidate';
import { decideMerge, reinforcedConfidence, type ExistingItem } from './merge-policy';

const FACTS = 'All database access goes through Kysely; raw SQL only in migrations.';

function candidate(type: ItemType, facts = FACTS, confidence = 0.8): CandidateItem {
  return candidateItemSchema.parse({
    type,
    title: 'Database access through Kysely',
    facts,
    schemaKey: 'root/db',
    dedupHint: 'decision:db:kysely',
    importance: 3,
    confidence,
    evidence: [{ eventId: 'evt-1', quote: 'goes through Kysely' }],
  });
}

function existing(overrides: Partial<ExistingItem> = {}): ExistingItem {
  return {
    id: '01JD0000000000000000000000',
    type: 'Decision',
    status: 'active',
    facts: FACTS,
    confidence: 0.6,
    ...overrides,
  };
}

describe('reinforcedConfidence', () => {
  it.each([
    [0.6, 0.5, 0.7],
    [0.5, 0.6, 0.7],
    [0, 0, 0.25],
    [0.8, 0.9, 0.925],
    [0.9, 0.9, 0.925],
    [0.96, 0.1, 0.97],
    [0.92, 0, 0.94],
    [0.98, 0.98, 0.985],
    [0.99, 0.99, 0.99],
  ])('reinforces %p with %p to %p', (before, incoming, after) => {
    expect(reinforcedConfidence(before, incoming)).toBe(after);
  });

  it('rounds to three decimals', () => {
    expect(reinforcedConfidence(0.123, 0)).toBe(0.342);
  });

  it('never raises past 0.99, however certain the new evidence is', () => {
    expect(reinforcedConfidence(0.99, 0.5)).toBe(0.99);
    expect(reinforcedConfidence(0.5, 1)).toBe(0.99);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 0.99, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b) => {
        expect(reinforcedConfidence(a, b)).toBeLessThanOrEqual(0.99);
      }),
    );
  });

  it('keeps a confidence already above 0.99 (a manual item at 1.0)', () => {
    expect(reinforcedConfidence(1, 0.6)).toBe(1);
    expect(reinforcedConfidence(0.995, 0)).toBe(0.995);
  });

  it('never falls below either input, up to the 0.99 cap', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        (a, b) => {
          const after = reinforcedConfidence(a, b);
          expect(after).toBeGreaterThanOrEqual(a);
          expect(after).toBeGreaterThanOrEqual(b);
        },
      ),
    );
  });

  it('strictly raises confidence below the cap', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 0.98, noNaN: true }), (a) => {
        expect(reinforcedConfidence(a, a)).toBeGreaterThan(a);
      }),
    );
  });
});

describe('decideMerge', () => {
  it('creates when no item has the hint', () => {
    expect(decideMerge(candidate('Decision'), undefined)).toEqual({ action: 'create' });
  });

  it.each<ItemStatus>(['archived', 'superseded', 'review'])('creates when the existing item is %s', (status) => {
    expect(decideMerge(candidate('Decision'), existing({ status }))).toEqual({ action: 'create' });
    expect(decideMerge(candidate('Decision', 'Something else entirely.'), existing({ status }))).toEqual({
      action: 'create',
    });
  });

  it.each<ItemStatus>(['active', 'stale'])('reinforces a %s item with the same content', (status) => {
    const target = existing({ status, confidence: 0.6 });
    expect(decideMerge(candidate('Decision', FACTS, 0.5), target)).toEqual({
      action: 'reinforce',
      target,
      confidence: 0.7,
    });
  });

  it('reinforces from the higher of the two confidences', () => {
    const target = existing({ confidence: 0.4 });
    const decision = decideMerge(candidate('Decision', FACTS, 0.8), target);
    expect(decision).toEqual({ action: 'reinforce', target, confidence: 0.85 });
  });

  it.each<ItemType>(['Decision', 'Convention'])('supersedes a live %s whose facts changed', (type) => {
    for (const status of ['active', 'stale'] as const) {
      const target = existing({ type, status });
      expect(decideMerge(candidate(type, 'All database access goes through Prisma.'), target)).toEqual({
        action: 'supersede',
        target,
      });
    }
  });

  it.each([
    ['extra whitespace', `  All database access goes through\n\tKysely;   raw SQL only in migrations.  `],
    ['another case', FACTS.toUpperCase()],
    ['no trailing period', FACTS.replace(/\.$/, '')],
    ['several trailing periods', `${FACTS}..`],
    ['a trailing exclamation mark', FACTS.replace(/\.$/, '!')],
  ])('treats a Decision whose facts differ only by %s as the same and reinforces', (_, facts) => {
    const target = existing({ type: 'Decision' });
    expect(decideMerge(candidate('Decision', facts), target)).toMatchObject({ action: 'reinforce', target });
  });

  it('supersedes when the facts differ inside, not only at the end', () => {
    const target = existing({ type: 'Convention' });
    const facts = FACTS.replace('raw SQL', 'raw  SQL, never,');
    expect(decideMerge(candidate('Convention', facts), target)).toEqual({ action: 'supersede', target });
  });

  it.each<ItemType>(['ImplementationFact', 'BugFix', 'Todo', 'ArchitectureNote'])(
    'reinforces (never supersedes) a %s whose facts changed',
    (type) => {
      const target = existing({ type, confidence: 0.6 });
      expect(decideMerge(candidate(type, 'Completely different facts.', 0.6), target)).toEqual({
        action: 'reinforce',
        target,
        confidence: 0.7,
      });
    },
  );

  it('reinforces when a Decision candidate meets an item of another type under the same hint', () => {
    const target = existing({ type: 'ArchitectureNote', confidence: 0.6 });
    expect(decideMerge(candidate('Decision', 'Completely different facts.', 0.6), target)).toEqual({
      action: 'reinforce',
      target,
      confidence: 0.7,
    });
  });

  it('reinforces when a Convention candidate meets a Decision under the same hint', () => {
    const target = existing({ type: 'Decision' });
    expect(decideMerge(candidate('Convention', 'Completely different facts.'), target).action).toBe('reinforce');
  });
});
