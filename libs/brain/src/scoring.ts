import type { MemoryItem } from '@memex/domain';

export const DAY_MS = 86_400_000;

/** Days since the item last changed or was last confirmed by new evidence. */
export function ageDays(item: MemoryItem, now: Date): number {
  return Math.max(0, (now.getTime() - touched(item)) / DAY_MS);
}

/** When the item last changed or was last confirmed, in ms. */
function touched(item: MemoryItem): number {
  return Math.max(item.updatedAt.getTime(), item.lastReinforcedAt?.getTime() ?? 0);
}

/** 1.0 today, falling linearly to 0.1 at 90 days, and 0.1 after. */
export function recency(days: number): number {
  return Math.max(0.1, 1 - (0.9 * Math.min(days, 90)) / 90);
}

/** Stale items are kept at reduced priority (memory-items.md). */
const STALE_FACTOR = 0.5;

/** score = (importance / 5) × confidence × recency; importance defaults to 3. */
export function score(item: MemoryItem, now: Date, age = ageDays(item, now)): number {
  const base = ((item.importance ?? 3) / 5) * item.confidence * recency(age);
  return item.status === 'stale' ? base * STALE_FACTOR : base;
}

const before = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Highest score first, with age counted in whole days: items written together differ by the
 * milliseconds between their writes, which says nothing. Ties go to the engine's salience (what
 * the session stressed most), then the title and the id, so the same items are always in the
 * same order, whatever their ids or the order they came in. Among sayings of one point
 * (`latestOnTies`), a tie goes to the one written or confirmed last, which is its current
 * saying. Scores are computed once per item per comparator (a sort compares each item many
 * times).
 */
export function byScore(now: Date, { latestOnTies = false } = {}): (a: MemoryItem, b: MemoryItem) => number {
  const memo = new Map<MemoryItem, number>();
  const of = (item: MemoryItem) => {
    let s = memo.get(item);
    if (s === undefined) {
      s = score(item, now, Math.floor(ageDays(item, now)));
      memo.set(item, s);
    }
    return s;
  };
  return (a, b) =>
    of(b) - of(a) ||
    (latestOnTies ? touched(b) - touched(a) : 0) ||
    (b.salience ?? -1) - (a.salience ?? -1) ||
    before(a.title, b.title) ||
    before(a.itemId, b.itemId);
}
