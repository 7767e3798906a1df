import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

/**
 * Judged precision: every item the engine stores is read and judged by a person (or a helper
 * reading for the team), against bench/quality/RUBRIC.md. Judgements are kept by the item's
 * text, so a rerun that stores the same item reuses its judgement and only new text is asked
 * for. Nothing here reads the engine's code: a judge that shared its rules could only agree.
 */
export type Verdict = 'useful' | 'marginal' | 'junk';

export interface Judgement {
  key: string;
  session: string;
  type: string;
  title: string;
  facts: string;
  verdict: Verdict;
  why: string;
}

export interface JudgedItem {
  type: string;
  title: string;
  facts: string;
  rationale: string | null;
}

/** An item's text as judged: type, title, facts and why, whitespace folded. */
export function judgementKey(session: string, item: JudgedItem): string {
  const text = [session, item.type, item.title, item.facts, item.rationale ?? '']
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .join('\n');
  return createHash('sha256').update(text).digest('hex').slice(0, 20);
}

export function loadJudgements(path: string): Map<string, Judgement> {
  if (!existsSync(path)) return new Map();
  const all = JSON.parse(readFileSync(path, 'utf8')) as Judgement[];
  return new Map(all.map((j) => [j.key, j]));
}
