import type { Finding } from '../finding';

/**
 * One family of secrets. `gates` (see secretGates) and `trigger` are cheap and necessary:
 * where neither matches, `find` cannot find anything, so most texts are never scanned by
 * the rule at all.
 */
export interface TextRule {
  name: string;
  gates: number;
  trigger: RegExp;
  find(text: string): Finding[];
}

/** Findings of each match's `group` (the whole match by default), of one kind. */
export function findAll(text: string, pattern: RegExp, kind: string, group = 0): Finding[] {
  const findings: Finding[] = [];
  for (const match of text.matchAll(pattern)) {
    const part = match[group];
    if (!part) continue;
    const start = group === 0 ? match.index : match.index + match[0].indexOf(part);
    findings.push({ start, end: start + part.length, kind });
  }
  return findings;
}
