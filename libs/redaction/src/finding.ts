/** A part of a text to replace by the placeholder of its kind. */
export interface Finding {
  start: number;
  end: number;
  /** What was found (`aws-access-key`, `password`, …): the placeholder's and the metric's label. */
  kind: string;
}

/** How many findings of each kind a redaction replaced. */
export type RedactionCounts = Record<string, number>;

/** No replacement: shared, never written to. */
export const NOTHING: RedactionCounts = Object.freeze({}) as RedactionCounts;

export function addCounts(into: RedactionCounts, from: RedactionCounts): RedactionCounts {
  for (const [kind, n] of Object.entries(from)) into[kind] = (into[kind] ?? 0) + n;
  return into;
}

export function countTotal(counts: RedactionCounts): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/** What a redaction left, and what it replaced. */
export interface Redacted<T> {
  value: T;
  counts: RedactionCounts;
}
