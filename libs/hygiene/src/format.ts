export const DAY_MS = 86_400_000;

/** Whole days, rounded down: a reason never claims more time than has passed. */
export function wholeDays(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * A 0..1 number for a sentence: at most three decimals, unless rounding would carry it across
 * `bound` (0.3999 must not read as 0.4 when the rule says "below 0.4").
 */
export function decimal(value: number, bound?: number): string {
  const short = Number(value.toFixed(3));
  if (bound !== undefined && value < bound !== short < bound) return String(value);
  return String(short);
}
