import { grow, type TokenSets } from './token-sets';
import { sharedCount } from './trigrams';

/** Float slack: every bound is rounded towards keeping a pair, never towards losing one. */
const EPSILON = 1e-9;
const ceilDown = (value: number) => Math.ceil(value - EPSILON);

/**
 * How many prefix tokens a pair must share to be compared (ℓ, when it needs that many in
 * all): the prefixes grow by ℓ − 1 tokens, but two unrelated texts rarely share four rare
 * trigrams, where they often share one. At a low threshold the prefixes are long already and
 * texts of one topic share many of their tokens: there ℓ is larger.
 */
const sharedFor = (threshold: number) => (threshold >= 0.6 ? 4 : 12);

/**
 * The signature of a set: 2048 bits, one per token by a hash of it. Wide enough to tell apart
 * sets a third alike at a threshold of 0.4; read a block at a time, so a clearly different
 * pair costs a fraction of it.
 */
const SIGNATURE_SHIFT = 21;
const WORDS = (1 << (32 - SIGNATURE_SHIFT)) / 32;
const BLOCK = 8;

/** Up to this many sets, a join compares every pair: cheaper than building an index. */
const DIRECT_UP_TO = 16;

/** The prefix a set of `size` tokens needs when it must share `overlap`·size of them and ℓ = `shared`. */
function prefixLength(size: number, overlap: number, shared: number): number {
  return Math.min(size, size - ceilDown(overlap * size) + shared);
}

/** Pairs found by joins: three parallel growable arrays (no callback in the join's hot loop). */
export class PairList {
  count = 0;
  left = new Int32Array(1024);
  right = new Int32Array(1024);
  similarity = new Float64Array(1024);

  push(x: number, y: number, similarity: number): void {
    if (this.count === this.left.length) {
      this.left = grow(this.left, this.count + 1);
      this.right = grow(this.right, this.count + 1);
      const wider = new Float64Array(this.left.length);
      wider.set(this.similarity);
      this.similarity = wider;
    }
    this.left[this.count] = x;
    this.right[this.count] = y;
    this.similarity[this.count++] = similarity;
  }
}

/** Bits set in each 16-bit number. */
const BITS = new Uint8Array(1 << 16);
for (let v = 1; v < BITS.length; v++) BITS[v] = (v & 1) + BITS[v >>> 1]!;
const popcount = (v: number) => BITS[v & 0xffff]! + BITS[v >>> 16]!;

/**
 * Every pair of sets among `members` whose Jaccard index is at least `threshold` (0 ≤ t ≤ 1),
 * without comparing all pairs: an exact prefix-filter join after AllPairs and PPJoin (Xiao et
 * al., "Efficient similarity joins for near duplicate detection", 2008), with the ℓ-prefix
 * of AdaptJoin (Wang et al., 2012) and a bitmap filter (Sandes et al., 2020).
 *
 * - Size: J(x, y) ≥ t needs t·|x| ≤ |y| ≤ |x|. Sets are visited smallest first, and each is
 *   compared only with the ones already seen.
 * - Prefix: J ≥ t needs an overlap of α = ⌈t/(1+t)·(|x|+|y|)⌉ tokens. In one global token
 *   order, the ℓ-th common token of such a pair has at least α − ℓ common tokens after it, so
 *   the first ℓ common tokens lie within the first |x|−α+ℓ tokens of x, hence the first
 *   |x|−⌈t·|x|⌉+ℓ, and the first |y|−⌈2t/(1+t)·|y|⌉+ℓ of y (as |y| ≤ |x|). The prefixes of y
 *   are indexed; x meets, through its own, the sets sharing at least one of their tokens,
 *   and keeps those sharing min(ℓ, α). Rarest tokens come first (see TokenSets), so these
 *   prefixes are tokens few sets hold.
 * - Window: past position |x|−α+ℓ−1 of x, a set needing an overlap of α cannot have its first ℓ
 *   common tokens with x; the larger sets, which need more, drop out of x's later tokens.
 * - Bitmap: each differing bit of the two signatures stands for at least one token in one set
 *   only, and J ≥ t allows |x|+|y|−2α such tokens.
 * Pairs left are checked by merging the two sorted sets: nothing is reported on a bound.
 */
export class SimilarityJoin {
  private readonly size: Int32Array;
  private readonly signature: Int32Array;
  // Per token w, its postings in [first[w], next[w]): the sets indexed so far (by their place
  // in the join's order) and their sizes, ascending. Those before low[w] are too small for
  // every set still to probe (sets are probed by ascending size).
  private readonly first: Int32Array;
  private readonly next: Int32Array;
  private readonly low: Int32Array;
  private postingSet = new Int32Array(1 << 16);
  private postingSize = new Int32Array(1 << 16);
  // Per set at place k of the join's order: the prefix tokens it shares with the set being
  // probed. Places, not set numbers, keep this small enough to stay in cache.
  private shared = new Int32Array(1024);
  private skip: Int32Array | null = null;
  private ell = 1;

  constructor(private readonly sets: TokenSets) {
    const { count, tokens, start } = sets;
    this.size = new Int32Array(count);
    this.signature = new Int32Array(count * WORDS);
    for (let s = 0; s < count; s++) {
      this.size[s] = start[s + 1]! - start[s]!;
      const base = s * WORDS;
      for (let k = start[s]!; k < start[s + 1]!; k++) {
        const bit = Math.imul(tokens[k]!, 0x9e3779b1) >>> SIGNATURE_SHIFT;
        this.signature[base + (bit >>> 5)]! |= 1 << (bit & 31);
      }
    }
    this.first = new Int32Array(sets.distinct);
    this.next = new Int32Array(sets.distinct);
    this.low = new Int32Array(sets.distinct);
  }

  /**
   * Adds to `out` every pair (larger set first) of `members` at least `threshold` alike, but
   * for pairs of one class of `skip` (a class per set, -1 for none): pairs found elsewhere.
   */
  join(members: readonly number[], threshold: number, out: PairList, skip?: Int32Array): void {
    if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`a similarity threshold is 0..1, not ${threshold}`);
    this.skip = skip ?? null;
    this.ell = sharedFor(threshold);
    // At 0 every pair matches, sharing a token or not: no index finds those, so all are compared.
    if (members.length <= DIRECT_UP_TO || threshold === 0) {
      this.joinDirectly(members, threshold, out);
      return;
    }
    const order = this.bySize(members);
    const touched = this.reservePostings(order, (2 * threshold) / (1 + threshold));
    if (this.shared.length < order.length) this.shared = new Int32Array(2 * order.length);
    const candidates = new Int32Array(order.length);
    const overlapFactor = threshold / (1 + threshold);
    const { ell } = this;
    for (let k = 0; k < order.length; k++) {
      const x = order[k]!;
      if (this.size[x] === 0) continue;
      const found = this.probeWith(x, threshold, candidates);
      const { shared, size } = this;
      // The overlap the smallest partner of x needs: past ℓ, the count alone decides.
      const leastOverlap = ceilDown(overlapFactor * (size[x]! + threshold * size[x]!));
      for (let c = 0; c < found; c++) {
        const place = candidates[c]!;
        const common = shared[place]!;
        shared[place] = 0;
        if (common < ell && (leastOverlap >= ell || common < leastOverlap)) continue;
        const y = order[place]!;
        if (common >= ell || common >= ceilDown(overlapFactor * (size[x]! + size[y]!))) {
          if (!this.skipped(x, y)) this.verify(x, y, threshold, out);
        }
      }
      this.index(x, k, threshold);
    }
    for (let k = 0; k < touched.length; k++) this.next[touched[k]!] = 0;
  }

  /** A few sets: every pair, through the size and bitmap filters. */
  private joinDirectly(members: readonly number[], t: number, out: PairList): void {
    for (let a = 0; a < members.length; a++) {
      for (let b = a + 1; b < members.length; b++) {
        let x = members[a]!;
        let y = members[b]!;
        if (this.size[x]! < this.size[y]!) [x, y] = [y, x];
        if (this.size[y]! >= t * this.size[x]! - EPSILON && this.size[y]! > 0 && !this.skipped(x, y)) {
          this.verify(x, y, t, out);
        }
      }
    }
  }

  private skipped(x: number, y: number): boolean {
    return this.skip !== null && this.skip[x] !== -1 && this.skip[x] === this.skip[y];
  }

  /** Room for every posting of a join, each token's run in one block; returns the tokens used. */
  private reservePostings(order: Int32Array, indexOverlap: number): Int32Array {
    const { tokens, start } = this.sets;
    const { size, first, next } = this;
    const touched: number[] = [];
    for (let k = 0; k < order.length; k++) {
      const s = order[k]!;
      for (let p = start[s]!, end = p + prefixLength(size[s]!, indexOverlap, this.ell); p < end; p++) {
        const w = tokens[p]!;
        if (next[w] === 0) touched.push(w);
        next[w]!++;
      }
    }
    let room = 0;
    for (const w of touched) {
      first[w] = room;
      room += next[w]!;
      next[w] = this.low[w] = first[w]!;
    }
    if (room > this.postingSet.length) {
      this.postingSet = grow(this.postingSet, room);
      this.postingSize = grow(this.postingSize, room);
    }
    return Int32Array.from(touched);
  }

  /**
   * Meets x with the sets indexed so far; writes the places of the ones worth verifying to
   * `candidates` and returns how many.
   */
  private probeWith(x: number, t: number, candidates: Int32Array): number {
    const { tokens, start } = this.sets;
    const { low, next, shared, postingSet, postingSize } = this;
    const sx = this.size[x]!;
    const x0 = start[x]!;
    const { ell } = this;
    const probeLength = prefixLength(sx, t, ell);
    const minSize = t * sx - EPSILON;
    const overlapFactor = t / (1 + t);
    // Past this position of x, the sets large enough to need more overlap than x has left
    // cannot have their first ℓ common tokens here: they are skipped, not met.
    const allSizesUntil = sx - ceilDown(overlapFactor * 2 * sx) + ell - 1;
    let found = 0;
    for (let i = 0; i < probeLength; i++) {
      const w = tokens[x0 + i]!;
      let bottom = low[w]!;
      let top = next[w]!;
      while (bottom < top && postingSize[bottom]! < minSize) bottom++;
      low[w] = bottom;
      if (i >= allSizesUntil) {
        const maxSize = Math.floor((sx - i + ell - 1 + EPSILON) / overlapFactor - sx + EPSILON);
        top = this.endOfSizesUpTo(bottom, top, maxSize);
      }
      // Only counted here, with no branch: a branch per posting costs more than it saves.
      for (let p = bottom; p < top; p++) {
        const y = postingSet[p]!;
        const common = shared[y]!;
        candidates[found] = y;
        found += common === 0 ? 1 : 0;
        shared[y] = common + 1;
      }
    }
    return found;
  }

  /** In postings [from, to), sizes ascending: the end of those of at most `maxSize` tokens. */
  private endOfSizesUpTo(from: number, to: number, maxSize: number): number {
    const { postingSize } = this;
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (postingSize[mid]! <= maxSize) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private verify(x: number, y: number, t: number, out: PairList): void {
    const sx = this.size[x]!;
    const sy = this.size[y]!;
    const alpha = ceilDown((t / (1 + t)) * (sx + sy));
    const { signature } = this;
    const allowed = sx + sy - 2 * alpha;
    let differing = 0;
    for (let b = 0, bx = x * WORDS, by = y * WORDS; b < WORDS; b += BLOCK) {
      for (let k = b; k < b + BLOCK; k++) differing += popcount(signature[bx + k]! ^ signature[by + k]!);
      if (differing > allowed) return;
    }
    const overlap = this.overlapAtLeast(x, y, alpha);
    const similarity = overlap / (sx + sy - overlap);
    if (similarity >= t) out.push(x, y, similarity);
  }

  private index(x: number, place: number, t: number): void {
    const { tokens, start } = this.sets;
    const { next, postingSet, postingSize } = this;
    const sx = this.size[x]!;
    const x0 = start[x]!;
    for (let i = 0, end = prefixLength(sx, (2 * t) / (1 + t), this.ell); i < end; i++) {
      const p = next[tokens[x0 + i]!]!++;
      postingSet[p] = place;
      postingSize[p] = sx;
    }
  }

  /** The members smallest first, ties by number (a sort of numbers, with no comparator to call). */
  private bySize(members: readonly number[]): Int32Array {
    const keys = new Float64Array(members.length);
    for (let k = 0; k < members.length; k++) keys[k] = this.size[members[k]!]! * 2 ** 31 + members[k]!;
    keys.sort();
    const order = new Int32Array(members.length);
    for (let k = 0; k < keys.length; k++) order[k] = keys[k]! % 2 ** 31;
    return order;
  }

  /** The exact overlap of two sets, or any number below `needed` once that is out of reach. */
  private overlapAtLeast(x: number, y: number, needed: number): number {
    const { tokens, start } = this.sets;
    return sharedCount(tokens, start[x]!, start[x + 1]!, tokens, start[y]!, start[y + 1]!, needed);
  }
}
