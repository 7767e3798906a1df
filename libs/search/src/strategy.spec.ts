import { querySignals } from './signals';
import { defaultStrategy, resolveStrategy } from './strategy';

describe('resolveStrategy', () => {
  it('is the intent default when nothing is overridden, with weights summing to 1', () => {
    expect(resolveStrategy('fix')).toEqual(defaultStrategy('fix'));
    const s = resolveStrategy('explain', { relevanceWeight: 2, recencyWeight: 1, salienceWeight: 1 });
    expect([s.relevanceWeight, s.recencyWeight, s.salienceWeight]).toEqual([0.5, 0.25, 0.25]);
  });

  it('merges a partial allocation, scales an oversubscribed one to 100, and bounds the depth', () => {
    const s = resolveStrategy('action', { budgetAllocation: { pattern: 110 }, depthLimit: 99 });
    const total = Object.values(s.budgetAllocation).reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(100);
    expect(s.budgetAllocation.pattern).toBeGreaterThan(s.budgetAllocation.semantic);
    expect(s.depthLimit).toBe(4);
  });
});

describe('querySignals', () => {
  it('reads keywords, names the store may know, an error signature and the intent', () => {
    const s = querySignals(
      "Why does `SearchService` fail in libs/search/src/context-pack.ts with TypeError: Cannot read properties of undefined (reading 'x')?",
    );
    expect(s.intent).toBe('fix');
    expect(s.mentionedEntities).toEqual(expect.arrayContaining(['context-pack.ts', 'searchservice']));
    expect(s.errorSignatures).toEqual(['TypeError: Cannot read properties of undefined (reading "…")']);
    expect(s.keywords).not.toContain('why');
    expect(s.relevantEventTypes).toContain('error');
  });
});
