/**
 * Exact nearest neighbours by dot product over L2-normalized rows (so the dot product is the
 * cosine). A project holds at most some 100,000 vectors: a scan of them all is a few tens of
 * milliseconds, exact, and needs no index to build or keep in step.
 */

export interface ScoredRow {
  row: number;
  score: number;
}

/**
 * The `k` rows of `matrix` (`count` rows of `query.length` floats, back to back) with the
 * highest dot product with `query`, best first, ties by row ascending. Rows for which
 * `accept(row)` is false are skipped without being scored.
 */
export function topByCosine(
  query: Float32Array,
  matrix: Float32Array,
  count: number,
  k: number,
  accept?: (row: number) => boolean,
): ScoredRow[] {
  const dims = query.length;
  if (!Number.isInteger(count) || count < 0 || matrix.length < count * dims) {
    throw new RangeError(`matrix holds ${matrix.length} floats, fewer than ${count} rows of ${dims}`);
  }
  const size = Math.max(0, Math.min(Math.floor(k), count));
  if (size === 0) return [];

  // A min-heap of the best `size` rows so far; its root is the worst of them.
  const scores = new Float64Array(size);
  const rows = new Int32Array(size);
  let filled = 0;
  const tail = dims - (dims % 4);

  // The local embedder's vectors are sparse (a query's few words and n-grams hash to a few
  // dozen of 256 slots): such a query is multiplied at its non-zero slots only, a tenth of the
  // work. Each product goes to the same one of four sums, in the same order, as in the dense
  // loop, and a zero product adds nothing, so both give the same scores to the last bit.
  const nonZero: number[] = [];
  for (let i = 0; i < dims; i++) if (query[i] !== 0) nonZero.push(i);
  const sparse = nonZero.length * 4 <= dims;
  const at = Int32Array.from(nonZero);
  const weight = Float64Array.from(nonZero, (i) => query[i]!);
  const lane = Uint8Array.from(nonZero, (i) => (i < tail ? i & 3 : 0));

  for (let row = 0, base = 0; row < count; row++, base += dims) {
    if (accept !== undefined && !accept(row)) continue;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    if (sparse) {
      for (let n = 0; n < at.length; n++) {
        const product = weight[n]! * matrix[base + at[n]!]!;
        const l = lane[n];
        if (l === 0) s0 += product;
        else if (l === 1) s1 += product;
        else if (l === 2) s2 += product;
        else s3 += product;
      }
    } else {
      let i = 0;
      for (; i < tail; i += 4) {
        s0 += query[i]! * matrix[base + i]!;
        s1 += query[i + 1]! * matrix[base + i + 1]!;
        s2 += query[i + 2]! * matrix[base + i + 2]!;
        s3 += query[i + 3]! * matrix[base + i + 3]!;
      }
      for (; i < dims; i++) s0 += query[i]! * matrix[base + i]!;
    }
    const score = s0 + s1 + s2 + s3;

    if (filled < size) {
      siftUp(scores, rows, filled++, score, row);
    } else if (score > scores[0]!) {
      // A later row never beats an equal earlier one, so equal scores need no test here.
      siftDown(scores, rows, size, score, row);
    }
  }

  const result: ScoredRow[] = new Array<ScoredRow>(filled);
  for (let n = filled; n > 0; n--) {
    result[n - 1] = { row: rows[0]!, score: scores[0]! };
    const lastScore = scores[n - 1]!;
    const lastRow = rows[n - 1]!;
    siftDown(scores, rows, n - 1, lastScore, lastRow);
  }
  return result;
}

/** True when (scoreA, rowA) ranks below (scoreB, rowB): lower score, or equal score and later row. */
function worse(scoreA: number, rowA: number, scoreB: number, rowB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && rowA > rowB);
}

function siftUp(scores: Float64Array, rows: Int32Array, at: number, score: number, row: number): void {
  let i = at;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!worse(score, row, scores[parent]!, rows[parent]!)) break;
    scores[i] = scores[parent]!;
    rows[i] = rows[parent]!;
    i = parent;
  }
  scores[i] = score;
  rows[i] = row;
}

/** Puts (score, row) in place of the root of a heap of `size` entries. */
function siftDown(scores: Float64Array, rows: Int32Array, size: number, score: number, row: number): void {
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= size) break;
    const right = left + 1;
    const child = right < size && worse(scores[right]!, rows[right]!, scores[left]!, rows[left]!) ? right : left;
    if (!worse(scores[child]!, rows[child]!, score, row)) break;
    scores[i] = scores[child]!;
    rows[i] = rows[child]!;
    i = child;
  }
  if (size > 0) {
    scores[i] = score;
    rows[i] = row;
  }
}
