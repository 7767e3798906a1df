import type { CandidateItem, ExistingHint } from '../candidate';
import { saysWhatItBecame } from '../new-state';
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
 * How much of an item's title and facts a more salient item's title and facts must hold for it
 * to add nothing, whatever the two items' types: nearly all of it.
 */
const SAID_ALREADY = 0.85;
const MIN_WORDS = 3;

function words(text: string): Set<string> {
  return new Set(significantWords(text));
}

/**
 * Within a window one point is said again in other forms of its words ("sorting", "sort"). An
 * item already stored is compared as written: across windows the bar is nearly every word, and
 * a looser reading would take the next step of a piece of work for the one before it.
 */
function stemmedWords(text: string): Set<string> {
  return new Set(significantWords(text).map(stem));
}

/** The endings a word takes in English: "-ing", "-ed", "-es" after a hiss, "-s" (not "-ss", "-us", "-is"). */
const ENDING = /(?:ing|ed|(?<=[sxz]|ch|sh)es|(?<![siu])s)$/;

/** A word without its ending: "sorting" is "sort", "operations" "operation", "created" "create". */
function stem(word: string): string {
  const base = word.replace(ENDING, '').replace(/e$/, '');
  // "string", "during": what is left of a short word is no stem.
  return base.length >= 4 ? base : word;
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

/** Two titles of a window say one point when most words of the shorter are in the other. */
function onePoint(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return overlap(a, b) >= SAME_POINT;
}

export function samePoint(a: string, b: string): boolean {
  return onePoint(stemmedWords(a), stemmedWords(b));
}

interface Said {
  item: CandidateItem;
  title: Set<string>;
  all: Set<string>;
}

/**
 * Candidates most salient first: a later one saying what an earlier one of the same type said
 * is folded into it (its evidence kept, up to five spans). So is one of any type whose title and
 * facts a more salient item already holds, nearly every word of them, in its own: the person's
 * "the issue is for the individual token streaming" quoted as the request of the fix it asked
 * for, a menu's option inside the note of the option taken. Work left open is never folded
 * either way: a Todo is tracked until it is done, and what was learnt must outlive it. A later
 * saying of the same type (by `saidAt`, where the window's events place its evidence) in words
 * of a change ("`manual-release-bun.ts` is now `manual-release.ts` …") is what the point has
 * become: it stands in the first one's place (`becomes`).
 */
export function withoutNearDuplicates(
  ranked: readonly CandidateItem[],
  saidAt: (item: CandidateItem) => number = () => 0,
): CandidateItem[] {
  const kept: Said[] = [];
  for (const item of ranked) {
    const said: Said = { item, title: stemmedWords(item.title), all: stemmedWords(`${item.title} ${item.facts}`) };
    const same = kept.find((k) => k.item.type === item.type && onePoint(k.title, said.title));
    const first =
      same ??
      (item.type === 'Todo'
        ? undefined
        : kept.find((k) => k.item.type !== 'Todo' && heldIn(said.all, k.all) >= SAID_ALREADY));
    if (!first) kept.push(said);
    else if (same && saidAt(item) > saidAt(same.item) && saysWhatItBecame(item.title)) becomes(same, said);
    else first.item.evidence = [...first.item.evidence, ...item.evidence].slice(0, 5);
  }
  return kept.map((k) => k.item);
}

/**
 * The point said again in words of what it has become: the later saying's title and facts, the
 * files and why of both, the headline span of each first, and both wordings to compare later
 * candidates with, so what folded into the first saying still folds.
 */
function becomes(first: Said, later: Said): void {
  const [lead, ...rest] = later.item.evidence;
  const [firstLead, ...firstRest] = first.item.evidence;
  first.item = {
    ...later.item,
    files: [...new Set([...later.item.files, ...first.item.files])],
    rationale: later.item.rationale ?? first.item.rationale,
    evidence: [lead, firstLead, ...rest, ...firstRest].filter((e) => e !== undefined).slice(0, 5),
  };
  first.title = new Set([...first.title, ...later.title]);
  first.all = new Set([...first.all, ...later.all]);
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
