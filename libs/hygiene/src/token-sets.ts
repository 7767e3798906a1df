import { ASCII_TRIGRAMS, maxTrigrams, writeTrigrams } from './trigrams';

/**
 * Many texts as sets of trigrams, all in one array: text i holds `tokens[start[i]..start[i+1])`.
 * A token is not the trigram's code but its rank by rarity over all the texts (0 the rarest),
 * so every set, sorted ascending, lists its rarest trigrams first: the order the similarity
 * join's prefix filter needs. Ranks are a one-to-one relabelling of trigrams, so any overlap or
 * Jaccard index computed on them equals the one on the trigrams themselves.
 */
export interface TokenSets {
  count: number;
  tokens: Int32Array;
  start: Int32Array;
  /** How many distinct tokens there are over all the texts; every token is below it. */
  distinct: number;
}

/** Non-ASCII trigram codes to dense ids, by open addressing: far faster than a Map for millions of look-ups. */
class HashedIds {
  private keys = new Int32Array(1 << 10).fill(-1);
  private ids = new Int32Array(1 << 10);
  private size = 0;

  private slot(code: number): number {
    const mask = this.keys.length - 1;
    let slot = Math.imul(code, 0x9e3779b1) & mask;
    while (this.keys[slot] !== -1 && this.keys[slot] !== code) slot = (slot + 1) & mask;
    return slot;
  }

  get(code: number): number {
    const slot = this.slot(code);
    return this.keys[slot] === code ? this.ids[slot]! : -1;
  }

  set(code: number, id: number): void {
    if (2 * (this.size + 1) > this.keys.length) this.rehash();
    const slot = this.slot(code);
    this.keys[slot] = code;
    this.ids[slot] = id;
    this.size++;
  }

  private rehash(): void {
    const { keys, ids } = this;
    this.keys = new Int32Array(keys.length * 2).fill(-1);
    this.ids = new Int32Array(keys.length * 2);
    for (let s = 0; s < keys.length; s++) {
      if (keys[s] === -1) continue;
      const slot = this.slot(keys[s]!);
      this.keys[slot] = keys[s]!;
      this.ids[slot] = ids[s]!;
    }
  }
}

export function grow(array: Int32Array, atLeast: number, fill = 0): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(Math.max(atLeast, array.length * 2));
  bigger.set(array);
  if (fill !== 0) bigger.fill(fill, array.length);
  return bigger;
}

/**
 * Lists each text's distinct trigrams by id and counts the texts holding each. An ASCII
 * trigram's code is its id (they are below 37³); any other is given the next id past them.
 */
class TrigramInterner {
  private readonly hashed = new HashedIds();
  private raw = new Int32Array(1 << 12);
  /** Ids used, ASCII codes included whether used or not. */
  size = ASCII_TRIGRAMS;
  codeOf = new Int32Array(ASCII_TRIGRAMS + 1024);
  frequency = new Int32Array(ASCII_TRIGRAMS + 1024);
  private seenBy = new Int32Array(ASCII_TRIGRAMS + 1024).fill(-1);
  length = 0;

  constructor(public ids: Int32Array) {
    for (let code = 0; code < ASCII_TRIGRAMS; code++) this.codeOf[code] = code;
  }

  /** Appends the distinct trigrams of text number `i` to `ids`. */
  add(text: string, i: number): void {
    const lower = text.toLowerCase();
    if (this.raw.length < maxTrigrams(lower.length)) this.raw = grow(this.raw, maxTrigrams(lower.length));
    const { raw } = this;
    const end = writeTrigrams(lower, raw, 0);
    if (this.ids.length < this.length + end) this.ids = grow(this.ids, this.length + end);
    const { ids } = this;
    let { seenBy, frequency, length } = this;
    for (let k = 0; k < end; k++) {
      let id = raw[k]!;
      if (id >= ASCII_TRIGRAMS) {
        id = this.idOfHashed(id);
        ({ seenBy, frequency } = this);
      }
      if (seenBy[id] === i) continue;
      seenBy[id] = i;
      frequency[id]!++;
      ids[length++] = id;
    }
    this.length = length;
  }

  private idOfHashed(code: number): number {
    let id = this.hashed.get(code);
    if (id !== -1) return id;
    id = this.size++;
    this.hashed.set(code, id);
    if (id === this.codeOf.length) {
      this.codeOf = grow(this.codeOf, id + 1);
      this.frequency = grow(this.frequency, id + 1);
      this.seenBy = grow(this.seenBy, id + 1, -1);
    }
    this.codeOf[id] = code;
    return id;
  }
}

export function buildTokenSets(texts: readonly string[]): TokenSets {
  const count = texts.length;
  const start = new Int32Array(count + 1);
  // Rarely more distinct trigrams than characters: a text of n characters has at most n + 1.
  let capacity = 0;
  for (const text of texts) capacity += text.length + 1;
  const interner = new TrigramInterner(new Int32Array(capacity));
  for (let i = 0; i < count; i++) {
    start[i] = interner.length;
    interner.add(texts[i]!, i);
  }
  const { ids, length, size, frequency, codeOf } = interner;
  start[count] = length;
  // Ties by code, so the order never depends on the order of the texts.
  const tokens = ids.subarray(0, length);
  const distinct = sortByRarity(tokens, start, size, frequency, codeOf);
  return { count, tokens, start, distinct };
}

/**
 * Relabels the tokens (ids below `size`) of every set by rarity, 0 the least frequent and
 * ties by `tie`, and sorts each set, in place; returns how many distinct tokens there are.
 * Two passes of a counting sort rather than a sort per set: the sets holding each rank, then
 * each rank appended to the sets holding it, in rank order.
 */
function sortByRarity(tokens: Int32Array, start: Int32Array, size: number, frequency: Int32Array, tie: Int32Array) {
  const count = start.length - 1;
  const used: number[] = [];
  for (let id = 0; id < size; id++) if (frequency[id]! > 0) used.push(id);
  const distinct = used.length;
  const byRarity = Int32Array.from(used).sort((a, b) => frequency[a]! - frequency[b]! || tie[a]! - tie[b]!);
  const rank = new Int32Array(size);
  const firstOfRank = new Int32Array(distinct + 1);
  for (let r = 0; r < distinct; r++) {
    rank[byRarity[r]!] = r;
    firstOfRank[r + 1] = firstOfRank[r]! + frequency[byRarity[r]!]!;
  }
  const holders = new Int32Array(tokens.length);
  const fill = firstOfRank.slice(0, distinct);
  for (let i = 0; i < count; i++) {
    for (let k = start[i]!; k < start[i + 1]!; k++) holders[fill[rank[tokens[k]!]!]!++] = i;
  }
  const cursor = start.slice(0, count);
  for (let r = 0, k = 0; r < distinct; r++) {
    for (const end = firstOfRank[r + 1]!; k < end; k++) tokens[cursor[holders[k]!]!++] = r;
  }
  return distinct;
}
