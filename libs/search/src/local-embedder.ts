import { FUNCTION_WORDS } from './stopwords';

/**
 * A lexical embedding computed without a model, so search works offline and the same text
 * always gives the same vector on every machine. It catches shared words, their light stems,
 * word pairs and character trigrams (typos, partial identifiers), not synonyms.
 *
 * Features, each hashed into one of `dimensions` slots with a ±1 sign from other bits of the
 * hash (so colliding features tend to cancel rather than pile up):
 * - unigrams (weight 1): every word, lightly stemmed, and every compound identifier whole
 *   (`getUserById`, `get_user_by_id` and `get-user-by-id` all give `getuserbyid`);
 * - bigrams (weight 0.5): neighbouring stemmed words;
 * - trigrams (weight 0.25): character trigrams of each unstemmed word padded with a space.
 * A feature seen tf times counts 1 + ln(tf), and the vector is L2-normalized (a text without a
 * word gives the zero vector). English function words (`FUNCTION_WORDS`) make no feature, so
 * "what is the …" brings no item closer to a question (v2; v1 counted them).
 */

/** Stored next to a vector so a change of features is never mixed with older vectors. */
export const LOCAL_EMBEDDING_MODEL = 'memex-local-hash-v2';

const UNIGRAM = 1;
const BIGRAM = 0.5;
const TRIGRAM = 0.25;
/** Distinct seeds keep a word and a trigram with the same letters apart. */
const UNIGRAM_SEED = 0x811c9dc5;
const BIGRAM_SEED = 0x9e3779b9;
const TRIGRAM_SEED = 0x85ebca6b;
const FNV_PRIME = 0x01000193;
const VOWEL = /[aeiouy]/;

/** A compound identifier: words of letters and digits joined by `_` or `-`. */
const COMPOUND = /[\p{L}\p{N}]+(?:[_-][\p{L}\p{N}]+)*/gu;
/** camelCase and PascalCase boundaries, keeping acronyms whole: `HTTPServer` → `HTTP`, `Server`. */
const CAMEL_BOUNDARY = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

/** FNV-1a over UTF-16 code units, then murmur3's finalizer so low bits (the slot) mix well. */
function hashString(text: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return mix(h);
}

function hashTrigram(a: number, b: number, c: number): number {
  let h = Math.imul(TRIGRAM_SEED ^ a, FNV_PRIME);
  h = Math.imul(h ^ b, FNV_PRIME);
  return mix(Math.imul(h ^ c, FNV_PRIME));
}

function mix(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Strips the commonest English inflections so `retries`, `retried` and `retry` meet; short
 * words are left alone (`used` stays `used` rather than become `us`). Crude on purpose: the
 * same rules apply to the query and the items, so a wrong stem only matters when it merges
 * two words.
 */
export function stem(word: string): string {
  const n = word.length;
  if (n <= 3) return word;
  if (word.endsWith('ies') || word.endsWith('ied')) return n > 4 ? `${word.slice(0, -3)}y` : word;
  // A stem needs a vowel: `string` and `bred` are words, not inflections.
  if (word.endsWith('ing') && n >= 6 && VOWEL.test(word.slice(0, -3))) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && !word.endsWith('eed') && n >= 5 && VOWEL.test(word.slice(0, -2))) {
    return undouble(word.slice(0, -2));
  }
  if (word.endsWith('ly') && n >= 7 && !/(?:ply|mbly)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (/(?:ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** `stopp` → `stop`, `runn` → `run`; `fall`, `pass` and `add` keep their pairs. */
function undouble(word: string): string {
  const n = word.length;
  return n >= 3 && word[n - 1] === word[n - 2] && !/[lsz]/.test(word[n - 1]!) ? word.slice(0, -1) : word;
}

/** Words in text order, plus each compound identifier whole when it has more than one part. */
export function lexicalWords(text: string): { words: string[]; compounds: string[] } {
  const words: string[] = [];
  const compounds: string[] = [];
  for (const match of text.normalize('NFKC').matchAll(COMPOUND)) {
    const parts: string[] = [];
    for (const piece of match[0].split(/[_-]/)) {
      for (const part of piece.split(CAMEL_BOUNDARY)) parts.push(part.toLowerCase());
    }
    words.push(...parts);
    if (parts.length > 1) compounds.push(parts.join(''));
  }
  return { words, compounds };
}

export function localEmbedding(text: string, dimensions: number): Float32Array {
  if (!Number.isInteger(dimensions) || dimensions <= 0) {
    throw new RangeError(`dimensions must be a positive integer, got ${dimensions}`);
  }
  const all = lexicalWords(text);
  // Function words say nothing of what a text is about; a text of nothing else keeps them.
  const content = all.words.filter((w) => !FUNCTION_WORDS.has(w));
  const words = content.length > 0 ? content : all.words;
  const { compounds } = all;
  // Hash → count; two features sharing a 32-bit hash would share a slot anyway.
  const unigrams = new Map<number, number>();
  const bigrams = new Map<number, number>();
  const trigrams = new Map<number, number>();
  const count = (counts: Map<number, number>, hash: number) => counts.set(hash, (counts.get(hash) ?? 0) + 1);

  let previous: string | null = null;
  for (const word of words) {
    const stemmed = stem(word);
    count(unigrams, hashString(stemmed, UNIGRAM_SEED));
    if (previous !== null) count(bigrams, hashString(`${previous} ${stemmed}`, BIGRAM_SEED));
    previous = stemmed;
    let a = 32;
    let b = 32;
    for (let i = 0; i <= word.length; i++) {
      const c = i < word.length ? word.charCodeAt(i) : 32;
      if (i > 0) count(trigrams, hashTrigram(a, b, c));
      a = b;
      b = c;
    }
  }
  for (const compound of compounds) count(unigrams, hashString(compound, UNIGRAM_SEED));

  const vector = new Float32Array(dimensions);
  const fill = (signed: boolean) => {
    vector.fill(0);
    const add = (counts: Map<number, number>, weight: number) => {
      for (const [hash, tf] of counts) {
        // The slot comes from the hash's value, the sign from its top bit, mixed once more.
        const sign = !signed || mix(hash ^ 0x5bd1e995) & 1 ? 1 : -1;
        vector[hash % dimensions]! += sign * weight * (1 + Math.log(tf));
      }
    };
    add(unigrams, UNIGRAM);
    add(bigrams, BIGRAM);
    add(trigrams, TRIGRAM);
    let squares = 0;
    for (let i = 0; i < dimensions; i++) squares += vector[i]! * vector[i]!;
    return squares;
  };
  let squares = fill(true);
  // Signed features can cancel out (a short text in few dimensions): a text with words must
  // never look empty, so it is hashed again without signs.
  if (squares < 1e-9 && unigrams.size > 0) squares = fill(false);
  if (squares === 0) return vector;
  const scale = 1 / Math.sqrt(squares);
  for (let i = 0; i < dimensions; i++) vector[i]! *= scale;
  return vector;
}
