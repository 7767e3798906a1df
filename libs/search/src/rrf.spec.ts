import fc from 'fast-check';
import { reciprocalRankFusion } from './rrf';

describe('reciprocalRankFusion', () => {
  it('ranks an id found by both lists above ids found by one', () => {
    const fused = reciprocalRankFusion({ text: ['a', 'b', 'c'], vector: ['d', 'e', 'c'] });
    expect(fused[0]).toEqual({ id: 'c', score: 2 / 63, ranks: { text: 3, vector: 3 } });
    expect(fused.map((h) => h.id)).toEqual(['c', 'a', 'd', 'b', 'e']);
    expect(fused[1]!.ranks).toEqual({ text: 1 });
  });

  it('honours k', () => {
    const fused = reciprocalRankFusion({ only: ['a', 'b'] }, 0);
    expect(fused).toEqual([
      { id: 'a', score: 1, ranks: { only: 1 } },
      { id: 'b', score: 0.5, ranks: { only: 2 } },
    ]);
    expect(reciprocalRankFusion({ only: ['a'] }, 10)[0]!.score).toBeCloseTo(1 / 11, 12);
  });

  it('breaks ties by best single rank, then id, and counts a repeated id once', () => {
    // p: ranks 1 and 2, q: ranks 2 and 1 — the same score; p's repeat at rank 3 is ignored.
    const fused = reciprocalRankFusion({ a: ['p', 'q', 'p'], b: ['q', 'p'] });
    expect(fused.map((h) => h.id)).toEqual(['p', 'q']);
    expect(fused[0]!.score).toBe(fused[1]!.score);
    expect(fused[0]!.ranks).toEqual({ a: 1, b: 2 });

    // k = 0: a scores 1/3 + 1/6, b and h 1/2 — equal, and their best single rank (2) beats a's (3).
    const tied = reciprocalRankFusion({ x: ['f', 'b', 'a'], y: ['g', 'h', 'i', 'j', 'k', 'a'] }, 0);
    const [b, a] = [tied.find((h) => h.id === 'b')!, tied.find((h) => h.id === 'a')!];
    expect(a.score).toBe(b.score);
    expect(tied.map((h) => h.id)).toEqual(['f', 'g', 'b', 'h', 'a', 'i', 'j', 'k']);
  });

  it('scores each id by the sum over lists of 1 / (k + rank), best first', () => {
    const ids = fc.uniqueArray(fc.constantFrom(...'abcdefghijklmnop'.split('')), {
      minLength: 0,
      maxLength: 16,
      size: 'max',
    });
    fc.assert(
      fc.property(ids, ids, ids, fc.integer({ min: 0, max: 100 }), (x, y, z, k) => {
        const fused = reciprocalRankFusion({ x, y, z }, k);
        expect(new Set(fused.map((h) => h.id))).toEqual(new Set([...x, ...y, ...z]));
        for (const hit of fused) {
          const expected = [x, y, z].reduce(
            (s, list) => s + (list.includes(hit.id) ? 1 / (k + list.indexOf(hit.id) + 1) : 0),
            0,
          );
          expect(hit.score).toBeCloseTo(expected, 12);
        }
        for (let i = 1; i < fused.length; i++) expect(fused[i]!.score).toBeLessThanOrEqual(fused[i - 1]!.score);
      }),
      { numRuns: 200, endOnFailure: true },
    );
  });
});
