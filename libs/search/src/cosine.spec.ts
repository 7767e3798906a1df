import fc from 'fast-check';
import { topByCosine } from './cosine';

/** Sort every accepted row; small integers keep every sum exact, whatever the order of adding. */
function reference(
  query: Float32Array,
  matrix: Float32Array,
  count: number,
  k: number,
  accept?: (r: number) => boolean,
) {
  const dims = query.length;
  const all = [];
  for (let row = 0; row < count; row++) {
    if (accept && !accept(row)) continue;
    let score = 0;
    for (let i = 0; i < dims; i++) score += query[i]! * matrix[row * dims + i]!;
    all.push({ row, score });
  }
  return all.sort((a, b) => b.score - a.score || a.row - b.row).slice(0, Math.max(0, k));
}

const small = fc.integer({ min: -3, max: 3 });

describe('topByCosine', () => {
  it('equals a full sort, ties by row, with and without a filter', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 11 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 70 }),
        fc.integer({ min: 1, max: 5 }),
        fc.boolean(),
        fc.infiniteStream(small),
        (dims, count, k, modulo, filtered, values) => {
          const query = Float32Array.from({ length: dims }, () => values.next().value as number);
          const matrix = Float32Array.from({ length: dims * count }, () => values.next().value as number);
          const accept = filtered ? (row: number) => row % modulo !== 0 : undefined;
          expect(topByCosine(query, matrix, count, k, accept)).toEqual(reference(query, matrix, count, k, accept));
        },
      ),
      { numRuns: 400, endOnFailure: true },
    );
  });

  it('scores a sparse query (the local embedder’s) to the last bit as the dense loop does', () => {
    /** The dense loop's own order: four sums by slot modulo 4, the tail into the first. */
    const dense = (query: Float32Array, matrix: Float32Array, row: number) => {
      const dims = query.length;
      const tail = dims - (dims % 4);
      const sums = [0, 0, 0, 0];
      for (let i = 0; i < dims; i++) sums[i < tail ? i % 4 : 0]! += query[i]! * matrix[row * dims + i]!;
      return sums[0]! + sums[1]! + sums[2]! + sums[3]!;
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 8, max: 70 }),
        fc.integer({ min: 1, max: 40 }),
        fc.infiniteStream(fc.float({ min: -1, max: 1, noNaN: true })),
        fc.infiniteStream(fc.integer({ min: 0, max: 9 })),
        (dims, count, values, dice) => {
          // At most a quarter of the slots set: the sparse path.
          const query = new Float32Array(dims);
          for (let n = 0; n < Math.floor(dims / 4); n++) query[(dice.next().value * 7) % dims] = values.next().value;
          const matrix = Float32Array.from({ length: dims * count }, () => values.next().value);
          const expected = Array.from({ length: count }, (_, row) => ({ row, score: dense(query, matrix, row) }))
            .sort((a, b) => b.score - a.score || a.row - b.row)
            .slice(0, 5);
          expect(topByCosine(query, matrix, count, 5)).toEqual(expected);
        },
      ),
      { numRuns: 300, endOnFailure: true },
    );
  });

  it('returns every row when k is larger than count, and none for k = 0', () => {
    const query = Float32Array.of(1, 0);
    const matrix = Float32Array.of(0, 1, 1, 0, 0.6, 0.8);
    expect(topByCosine(query, matrix, 3, 10)).toEqual([
      { row: 1, score: 1 },
      { row: 2, score: expect.closeTo(0.6, 6) as number },
      { row: 0, score: 0 },
    ]);
    expect(topByCosine(query, matrix, 3, 0)).toEqual([]);
    expect(topByCosine(query, matrix, 0, 5)).toEqual([]);
  });

  it('never scores a row the filter refuses', () => {
    const query = Float32Array.of(1, 0);
    const matrix = Float32Array.of(1, 0, 0.5, 0.5, 0, 1);
    const asked: number[] = [];
    const top = topByCosine(query, matrix, 3, 3, (row) => (asked.push(row), row !== 0));
    expect(top.map((h) => h.row)).toEqual([1, 2]);
    expect(asked).toEqual([0, 1, 2]);
  });

  it('rejects a matrix shorter than count rows', () => {
    expect(() => topByCosine(Float32Array.of(1, 0), new Float32Array(3), 2, 1)).toThrow(RangeError);
  });
});
