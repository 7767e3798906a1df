import type { Finding } from './finding';

/** What stands where a secret was: readable, typed, and never itself mistaken for a secret. */
export function placeholder(kind: string): string {
  return `[REDACTED:${kind}]`;
}

const PLACEHOLDERS = /\[REDACTED:[a-z0-9-]+\]/g;

/** Where the text already holds placeholders (a text redacted before, or quoting one). */
export function placeholderSpans(text: string): Array<[number, number]> {
  if (!text.includes('[REDACTED:')) return [];
  return [...text.matchAll(PLACEHOLDERS)].map((m) => [m.index, m.index + m[0].length]);
}

/**
 * The text with each finding replaced. Findings come in priority order: one overlapping an
 * earlier one, or a placeholder already in the text (what redacting twice would find again),
 * is dropped, so the more precise rule wins and a redacted text redacts to itself.
 *
 * What is taken is marked character by character rather than compared with every span taken
 * before: a text can hold thousands of findings (a dump of keys, or a text made to), and
 * comparing each with all the others grew with their square.
 */
export function applyFindings(
  text: string,
  findings: readonly Finding[],
  allowed: (secret: string) => boolean,
): { text: string; applied: Finding[] } {
  const taken = new Uint8Array(text.length + 1);
  for (const [start, end] of placeholderSpans(text)) taken.fill(1, start, end);
  const applied: Finding[] = [];
  for (const finding of findings) {
    if (finding.end <= finding.start) continue;
    if (overlapsTaken(taken, finding.start, finding.end)) continue;
    if (allowed(text.slice(finding.start, finding.end))) continue;
    taken.fill(1, finding.start, finding.end);
    applied.push(finding);
  }
  if (applied.length === 0) return { text, applied };
  applied.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const f of applied) {
    out += text.slice(at, f.start) + placeholder(f.kind);
    at = f.end;
  }
  return { text: out + text.slice(at), applied };
}

/**
 * Whether any character of [start, end) is taken. Taken spans never overlap, so looking at
 * both ends and then inward finds one at once in the usual case (a rule finding the same
 * secret as a rule before it).
 */
function overlapsTaken(taken: Uint8Array, start: number, end: number): boolean {
  if (taken[start] || taken[end - 1]) return true;
  return taken.subarray(start, end).includes(1);
}
