import type { CandidateItem, ExistingHint } from '../candidate';
import { significantWords } from '../text';

/**
 * One statement is one item, however it was worded. A session says the same thing in its
 * working notes, its closing message and its commit; the second saying of a point is a
 * duplicate a reader has to skip, so it joins the first instead of standing beside it.
 */

/** How much of the smaller wording the other shares for the two to say one thing. */
const SAME_POINT = 0.6;
/**
 * Across windows the bar is higher: an item already stored is only taken to be said again when
 * nearly every word is the same, so "bump to 1.2.4" never folds into the "bump to 1.2.3" it follows.
 */
const SAME_STORED_POINT = 0.8;
/**
 * How much of a title a more salient item's title and facts must hold for the title to add
 * nothing, whatever the two items' types: nearly all of it.
 */
const SAID_ALREADY = 0.85;
const MIN_WORDS = 3;

function words(text: string): Set<string> {
  return new Set(significantWords(text));
}

/**
 * Within a window one point is said again in other forms of its words ("sorting", "sort"); an
 * item already stored is compared word for word, as "publishes with npm" is not "publish with bun".
 */
function stemmedWords(text: string): Set<string> {
  return new Set(significantWords(text).map(stem));
}

/** A word without its inflection, so "sorting" and "sort", "operations" and "operation" count as one. */
function stem(word: string): string {
  return word.length > 5 ? word.replace(/(?:ing|ed|es|s)$/, '') : word;
}

function sharedCount(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared += 1;
  return shared;
}

/** Overlap of the two word sets over the smaller one: a short title inside a longer one is the same point. */
function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size < MIN_WORDS || b.size < MIN_WORDS) return 0;
  return sharedCount(a, b) / Math.min(a.size, b.size);
}

/** Share of the words of `a` that `b` holds. */
function heldIn(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  return a.size < MIN_WORDS ? 0 : sharedCount(a, b) / a.size;
}

export function samePoint(a: string, b: string): boolean {
  return overlap(stemmedWords(a), stemmedWords(b)) >= SAME_POINT;
}

/**
 * Candidates most salient first: a later one saying what an earlier one of the same type said
 * is folded into it (its evidence kept, up to five spans). So is one of any type whose title a
 * more salient item already states, word for word, in its title or facts: the person's "the
 * issue is for the individual token streaming" quoted as the fix's request, a menu's option
 * inside the note of the option taken, a progress line inside the commit note it led to. Work
 * left open stands on its own even when a note mentions it: a Todo is tracked until it is done.
 */
export function withoutNearDuplicates(ranked: readonly CandidateItem[]): CandidateItem[] {
  const kept: Array<{ item: CandidateItem; words: Set<string>; all: Set<string> }> = [];
  for (const item of ranked) {
    const own = stemmedWords(item.title);
    const first =
      kept.find((k) => k.item.type === item.type && overlap(k.words, own) >= SAME_POINT) ??
      (item.type === 'Todo' ? undefined : kept.find((k) => heldIn(own, k.all) >= SAID_ALREADY));
    if (first) first.item.evidence = [...first.item.evidence, ...item.evidence].slice(0, 5);
    else kept.push({ item, words: own, all: stemmedWords(`${item.title} ${item.facts}`) });
  }
  return kept.map((k) => k.item);
}

/**
 * A candidate saying what an item the project already holds says (same type, same point) takes
 * that item's dedup hint, so the write path reinforces or replaces it rather than adding a
 * second copy from a later window of the session.
 */
export function adoptingHints(candidates: readonly CandidateItem[], hints: readonly ExistingHint[]): CandidateItem[] {
  if (hints.length === 0) return [...candidates];
  const known = hints.map((h) => ({ hint: h, words: words(h.title) }));
  return candidates.map((c) => {
    const own = words(c.title);
    const match = known.find((k) => k.hint.type === c.type && overlap(k.words, own) >= SAME_STORED_POINT);
    return match && match.hint.dedupHint !== c.dedupHint ? { ...c, dedupHint: match.hint.dedupHint } : c;
  });
}
