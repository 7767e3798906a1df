import { lexicalWords, stem } from './local-embedder';
import { CONTRACTION_STEMS } from '@memex/domain';
import { FUNCTION_WORDS } from './stopwords';

/**
 * Words that the embedder keeps but that say nothing of what a text is about, so sharing one
 * is no match: the auxiliary "do" of every question ("when do tulips bloom" found "let's do 1"),
 * which full text drops as a stop word, and what the parser keeps of "won't" or "isn't".
 */
const SAYS_NOTHING: ReadonlySet<string> = new Set(['do', ...CONTRACTION_STEMS]);

/** A text's content words, lightly stemmed as the local embedder stems them, and its compound identifiers whole. */
export function contentStems(text: string): Set<string> {
  const { words, compounds } = lexicalWords(text);
  return new Set([...words.filter((w) => w.length >= 2 && !FUNCTION_WORDS.has(w)).map(stem), ...compounds]);
}

/**
 * How many of the query's content words a text says ("do" and contraction stems not counted),
 * counted up to `enough`: the callers ask "any?" or "two?", on every hit of a search.
 */
export function sharedContentWords(query: ReadonlySet<string>, text: string, enough = Infinity): number {
  if (query.size === 0) return 0;
  let shared = 0;
  for (const word of contentStems(text)) {
    if (query.has(word) && !SAYS_NOTHING.has(word) && ++shared >= enough) break;
  }
  return shared;
}

/**
 * Whether a text says any of the query's content words. A hashed lexical vector is near a
 * query for shared words, but also, a little, for features that only collide in its few
 * hundred slots: a hit that shares no word with the query is such a collision, not a match
 * (`zzzqqq` found five items before this rule).
 */
export function sharesContentWord(query: ReadonlySet<string>, text: string): boolean {
  return sharedContentWords(query, text, 1) > 0;
}

/**
 * Whether a hit is about what the query asks, rather than merely sharing a word with it: it
 * says two of the query's content words, or its one. "symptoms of the common cold" finds a fix
 * note through `symptom` alone, as "how to change a flat bicycle tire" finds a change note
 * through `change`; a question about the project finds an item saying more of it. What a pack
 * adds around its hits (their sessions' other items, the project's salient entities) follows
 * such hits only.
 */
export function anchorsQuery(query: ReadonlySet<string>, text: string): boolean {
  const needed = Math.min(2, [...query].filter((w) => !SAYS_NOTHING.has(w)).length);
  return needed > 0 && sharedContentWords(query, text, needed) >= needed;
}
