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
 */
export function applyFindings(
  text: string,
  findings: readonly Finding[],
  allowed: (secret: string) => boolean,
): { text: string; applied: Finding[] } {
  const taken: Array<[number, number]> = placeholderSpans(text);
  const applied: Finding[] = [];
  for (const finding of findings) {
    if (finding.end <= finding.start) continue;
    if (taken.some(([start, end]) => finding.start < end && start < finding.end)) continue;
    if (allowed(text.slice(finding.start, finding.end))) continue;
    taken.push([finding.start, finding.end]);
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
