/** A part of a text to replace by the placeholder of its kind. */
export interface Finding {
  start: number;
  end: number;
  /** What was found (`aws-access-key`, `password`, …): the placeholder's and the metric's label. */
  kind: string;
}

/**
 * The findings, in their order, with those of one kind that overlap made one (their union, in
 * the place of the first). Two rules that see one secret differently (secretlint's OpenAI
 * pattern stops at the last word boundary, the token formats' takes the key to its end) then
 * redact all of it, where the first alone would leave the other's tail.
 */
export function mergeOverlapsOfAKind(findings: readonly Finding[]): Finding[] {
  const order = findings.map((f, i) => ({ ...f, i }));
  const byKind = [...order].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.start - b.start));
  const merged: Array<Finding & { i: number }> = [];
  for (const f of byKind) {
    const last = merged[merged.length - 1];
    if (last && last.kind === f.kind && f.start < last.end) {
      last.end = Math.max(last.end, f.end);
      last.i = Math.min(last.i, f.i);
    } else {
      merged.push({ ...f });
    }
  }
  return merged.sort((a, b) => a.i - b.i).map(({ start, end, kind }) => ({ start, end, kind }));
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
