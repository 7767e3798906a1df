/**
 * Trigram similarity as pg_trgm computes it, so a pass agrees with a `similarity()` query a
 * person runs by hand: the text is lowercased and split into words of letters and digits
 * (everything else separates words, so whitespace needs no collapsing), each word is padded
 * with two spaces before and one after, and the similarity of two texts is the Jaccard index
 * |A ∩ B| / |A ∪ B| of their sets of distinct trigrams. A text with no word has no trigram and
 * is similar to nothing (0), as in pg_trgm.
 *
 * A trigram is a number, not a string, so 50,000 texts become typed arrays without a string
 * per trigram. A trigram of ASCII characters (a space, a digit or a letter: 37 symbols) is a
 * number below 37³, exactly, small enough for a table indexed by it; any other is hashed
 * into [37³, 2^31), where two rare trigrams may, very seldom, count as one.
 */

const SPACE = 32;
export const ASCII_TRIGRAMS = 37 ** 3;
const HASHED_RANGE = 0x7fffffff - ASCII_TRIGRAMS;
/** Space 0, digits 1..10, letters 11..36 (either case: the text is lowercased before). */
const ASCII_SYMBOL = new Int8Array(128);
for (let c = 48; c <= 57; c++) ASCII_SYMBOL[c] = c - 47;
for (let c = 97; c <= 122; c++) ASCII_SYMBOL[c] = ASCII_SYMBOL[c - 32] = c - 86;

/** 1 a word character, 2 not, 0 not yet known; lazily filled past ASCII. */
const wordChar = new Int8Array(65536);
for (let c = 0; c < 128; c++) {
  const isWord = (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  wordChar[c] = isWord ? 1 : 2;
}
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

function isWordChar(c: number): boolean {
  let known = wordChar[c];
  if (known === 0) {
    // Lone surrogate halves are not letters: characters outside the BMP separate words.
    known = LETTER_OR_DIGIT.test(String.fromCharCode(c)) ? 1 : 2;
    wordChar[c] = known;
  }
  return known === 1;
}

function trigramCode(a: number, b: number, c: number): number {
  if ((a | b | c) < 128) return (ASCII_SYMBOL[a]! * 37 + ASCII_SYMBOL[b]!) * 37 + ASCII_SYMBOL[c]!;
  let h = Math.imul(0x811c9dc5 ^ a, 0x01000193);
  h = Math.imul(h ^ b, 0x01000193);
  h = Math.imul(h ^ c, 0x01000193);
  return ASCII_TRIGRAMS + ((h >>> 0) % HASHED_RANGE);
}

/** The most trigrams `writeTrigrams` writes for a text of this length: one per character and one per word end. */
export const maxTrigrams = (length: number) => 2 * length + 2;

/**
 * Writes the code of every trigram of `lower`, a lowercased text (repeats included, in text
 * order), into `out` from `at`, and returns where it stopped. `out` needs room for
 * maxTrigrams(lower.length) codes.
 */
export function writeTrigrams(lower: string, out: Int32Array, at: number): number {
  let n = at;
  let a = SPACE;
  let b = SPACE;
  let inWord = false;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (isWordChar(c)) {
      if (!inWord) {
        inWord = true;
        a = SPACE;
        b = SPACE;
      }
      out[n++] = trigramCode(a, b, c);
      a = b;
      b = c;
    } else if (inWord) {
      inWord = false;
      out[n++] = trigramCode(a, b, SPACE);
    }
  }
  if (inWord) out[n++] = trigramCode(a, b, SPACE);
  return n;
}

/** The distinct trigrams of a text, ascending. */
export function trigrams(text: string): Int32Array {
  const lower = text.toLowerCase();
  const raw = new Int32Array(maxTrigrams(lower.length));
  const sorted = raw.subarray(0, writeTrigrams(lower, raw, 0)).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i]!;
  }
  return sorted.slice(0, n);
}

/**
 * |a ∩ b| of two ascending runs of distinct numbers, `a[i..endA)` and `b[j..endB)`, merged in
 * one pass. Once `needed` is out of reach it stops, answering the count so far (below
 * `needed`): a similarity join asks only whether a pair shares enough.
 */
export function sharedCount(
  a: ArrayLike<number>,
  i: number,
  endA: number,
  b: ArrayLike<number>,
  j: number,
  endB: number,
  needed = 0,
): number {
  let common = 0;
  while (i < endA && j < endB) {
    if (common + Math.min(endA - i, endB - j) < needed) return common;
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      common++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return common;
}

/** Jaccard index of two ascending arrays of distinct numbers; 0 when either is empty. */
export function jaccard(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length === 0 || b.length === 0) return 0;
  const common = sharedCount(a, 0, a.length, b, 0, b.length);
  return common / (a.length + b.length - common);
}

export function trigramSimilarity(a: string, b: string): number {
  return jaccard(trigrams(a), trigrams(b));
}

/** The text near-duplicates are judged on: the title and the facts as one text. */
export function itemText(item: { title: string; facts: string }): string {
  return `${item.title} ${item.facts}`;
}
