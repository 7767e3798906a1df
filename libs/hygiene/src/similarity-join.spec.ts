import fc from 'fast-check';
import { PairList, SimilarityJoin } from './similarity-join';
import { buildTokenSets } from './token-sets';
import { jaccard, trigrams } from './trigrams';

/** Texts over a small vocabulary, many of them edits of others: every similarity occurs. */
const VOCABULARY = 'auth token refresh rotate cache redis queue worker retry page hook query schema api ts'.split(' ');
const arbitraryTexts = fc
  .array(
    fc.record({
      words: fc.array(fc.constantFrom(...VOCABULARY, 'x', 'y9', 'élan', 'naïve', '日本語'), {
        maxLength: 25,
        size: 'max',
      }),
      copyOf: fc.option(fc.nat(), { nil: null }),
      edits: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...VOCABULARY, '')), { maxLength: 4 }),
    }),
    { minLength: 0, maxLength: 120, size: 'max' },
  )
  .map((specs) => {
    const texts: string[] = [];
    for (const spec of specs) {
      let words = spec.words;
      if (spec.copyOf !== null && texts.length > 0) {
        words = texts[spec.copyOf % texts.length]!.split(' ');
        for (const [at, word] of spec.edits) if (words.length > 0) words[at % words.length] = word;
      }
      texts.push(words.join(' '));
    }
    return texts;
  });

function joined(texts: string[], members: number[], threshold: number, skip?: Int32Array): Map<string, number> {
  const out = new PairList();
  new SimilarityJoin(buildTokenSets(texts)).join(members, threshold, out, skip);
  const pairs = new Map<string, number>();
  for (let p = 0; p < out.count; p++) {
    const [a, b] = [out.left[p]!, out.right[p]!].sort((x, y) => x - y);
    if (pairs.has(`${a},${b}`)) throw new Error(`pair ${a},${b} found twice`);
    pairs.set(`${a},${b}`, out.similarity[p]!);
  }
  return pairs;
}

function naive(texts: string[], members: number[], threshold: number, skip?: Int32Array): Map<string, number> {
  const sets = texts.map(trigrams);
  const pairs = new Map<string, number>();
  const sorted = [...members].sort((a, b) => a - b);
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const [a, b] = [sorted[i]!, sorted[j]!];
      if (skip && skip[a] !== -1 && skip[a] === skip[b]) continue;
      const s = jaccard(sets[a]!, sets[b]!);
      if (s >= threshold) pairs.set(`${a},${b}`, s);
    }
  }
  return pairs;
}

describe('SimilarityJoin', () => {
  it('finds exactly the pairs all-pairs comparison finds, with their similarity', () => {
    fc.assert(
      fc.property(
        arbitraryTexts,
        fc.constantFrom(0.1, 0.3, 0.4, 0.5, 0.75, 0.9, 1),
        fc.func(fc.boolean()),
        (texts, threshold, excluded) => {
          const members = [...texts.keys()].filter((i) => !excluded(i));
          expect(joined(texts, members, threshold)).toEqual(naive(texts, members, threshold));
        },
      ),
      { numRuns: 400, endOnFailure: true },
    );
  });

  it('passes over the pairs of one skipped class', () => {
    fc.assert(
      fc.property(
        arbitraryTexts,
        fc.constantFrom(0.3, 0.75),
        fc.func(fc.integer({ min: -1, max: 2 })),
        (texts, t, k) => {
          const skip = Int32Array.from(texts.keys(), (i) => k(i));
          const members = [...texts.keys()];
          expect(joined(texts, members, t, skip)).toEqual(naive(texts, members, t, skip));
        },
      ),
      { numRuns: 200, endOnFailure: true },
    );
  });

  it('reuses one index for many joins', () => {
    const texts = Array.from({ length: 300 }, (_, i) => `${VOCABULARY[i % 7]} ${VOCABULARY[i % 11]} item ${i % 40}`);
    const join = new SimilarityJoin(buildTokenSets(texts));
    for (const t of [0.75, 0.4, 0.75]) {
      const members = [...texts.keys()].filter((i) => i % 3 !== 0);
      const out = new PairList();
      join.join(members, t, out);
      expect(out.count).toBe(naive(texts, members, t).size);
    }
  });

  it('finds identical texts at a threshold of 1 and never pairs an empty text', () => {
    const texts = ['same words here', 'Same, words: here!', '', '...', 'other words'];
    expect([...joined(texts, [0, 1, 2, 3, 4], 1).keys()]).toEqual(['0,1']);
    expect([...joined(texts, [0, 1, 2, 3, 4], 0.01).keys()]).not.toContain('2,3');
  });
});
