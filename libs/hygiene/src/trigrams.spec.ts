import fc from 'fast-check';
import { itemText, trigramSimilarity, trigrams } from './trigrams';
import { buildTokenSets } from './token-sets';

describe('trigram similarity', () => {
  it('matches pg_trgm on known values', () => {
    // SELECT similarity('word', 'words') → 0.5714286 (4 shared of 7).
    expect(trigramSimilarity('word', 'words')).toBeCloseTo(4 / 7, 10);
    // SELECT similarity('word', 'two words') → 0.36363637 (4 shared of 11).
    expect(trigramSimilarity('word', 'two words')).toBeCloseTo(4 / 11, 10);
    expect(trigrams('cat').length).toBe(4);
  });

  it('ignores case, punctuation and spacing', () => {
    expect(trigramSimilarity('Token  refresh, in Redis!', 'token refresh in redis')).toBe(1);
    expect(trigramSimilarity('a-b', 'a b')).toBe(1);
  });

  it('is 0 for texts without a word and 1 only for the same words', () => {
    expect(trigramSimilarity('', '')).toBe(0);
    expect(trigramSimilarity('...', 'word')).toBe(0);
    expect(trigramSimilarity('alpha beta', 'beta alpha')).toBe(1);
    expect(trigramSimilarity('alpha beta', 'alpha betas')).toBeLessThan(1);
  });

  it('treats letters beyond ASCII as letters', () => {
    expect(trigrams('café').length).toBe(5);
    expect(trigramSimilarity('café', 'cafe')).toBeLessThan(1);
    expect(trigramSimilarity('日本語', '日本語')).toBe(1);
  });

  it('is symmetric, between 0 and 1', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (a, b) => {
        const s = trigramSimilarity(a, b);
        expect(s).toBe(trigramSimilarity(b, a));
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
      }),
      { numRuns: 200, endOnFailure: true },
    );
  });

  it('judges items on the title and the facts together', () => {
    expect(itemText({ title: 'Title', facts: 'facts' })).toBe('Title facts');
  });
});

describe('buildTokenSets', () => {
  it('holds each text as its distinct trigrams, rarest first, ranked the same for every text', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40, size: 'max' }), { maxLength: 40, size: 'max' }), (texts) => {
        const sets = buildTokenSets(texts);
        const frequency = new Map<number, number>();
        for (const t of sets.tokens) frequency.set(t, (frequency.get(t) ?? 0) + 1);
        for (let i = 0; i < texts.length; i++) {
          const set = [...sets.tokens.subarray(sets.start[i], sets.start[i + 1])];
          expect(set.length).toBe(trigrams(texts[i]!).length);
          const ascending = set.every((t, k) => k === 0 || t > set[k - 1]!);
          const rarestFirst = set.every((t, k) => k === 0 || frequency.get(t)! >= frequency.get(set[k - 1]!)!);
          expect([ascending, rarestFirst]).toEqual([true, true]);
        }
      }),
      { numRuns: 200, endOnFailure: true },
    );
  });
});
