import type { ItemType } from '@memex/domain';

export type MarkerSource = 'tag' | 'keyword';

export interface Marker {
  type: ItemType;
  /** The item text: a tag's text, or the whole sentence a keyword was found in. */
  text: string;
  /** The verbatim text to quote as evidence. */
  quote: string;
  source: MarkerSource;
  resolved: boolean;
}

const TAG_TYPES: Record<string, ItemType> = {
  decision: 'Decision',
  convention: 'Convention',
  rule: 'Convention',
  bug: 'BugFix',
  bugfix: 'BugFix',
  fix: 'BugFix',
  todo: 'Todo',
  task: 'Todo',
  architecture: 'ArchitectureNote',
  architecturenote: 'ArchitectureNote',
  implementation: 'ImplementationFact',
  implementationfact: 'ImplementationFact',
  fact: 'ImplementationFact',
  note: 'ImplementationFact',
};

const TAG = /\[MEMORY:\s*([A-Za-z]+)\s*:\s*([^\]]{8,2000})\]/g;

/** Explicit self-reports: `[MEMORY: decision: Use Kysely for every query]`. */
export function memoryTags(content: string): Marker[] {
  const out: Marker[] = [];
  for (const m of content.matchAll(TAG)) {
    const type = TAG_TYPES[m[1]!.toLowerCase()];
    if (!type) continue;
    const text = m[2]!.trim();
    out.push({ type, text, quote: m[0], source: 'tag', resolved: /\b(fixed|resolved|done)\b/i.test(text) });
  }
  return out;
}

interface KeywordRule {
  type: ItemType;
  pattern: RegExp;
  /** A sentence matching this is not a statement of the rule (negated, hypothetical …). */
  unless?: RegExp;
}

const KEYWORD_RULES: KeywordRule[] = [
  {
    type: 'Decision',
    pattern:
      /\b(?:we|i)(?:'ve| have)? decided\b|\bdecided to\b|\blet'?s (?:use|go with|switch to|stick with|keep)\b|\bwe(?:'ll| will| are going to) (?:use|go with|switch to|stick with)\b|\b(?:chose|picked|opted for|went with)\b.+\b(?:over|instead of)\b|\buse\b.+\binstead of\b|\bdecision:/i,
    unless:
      /\b(?:not|n't|never|haven't|undecided|whether|if we|should we|could we|might)\b.{0,30}\b(?:decid|use|go with|switch)/i,
  },
  {
    type: 'Convention',
    pattern:
      /^(?:(?:please|we should|you should|make sure (?:to|you)|remember to|from now on,?)\s+)?(?:always|never)\b|\b(?:must|should) (?:always|never)\b|^convention:|\bprefer\b.+\bover\b/i,
  },
  {
    type: 'Todo',
    pattern: /\bTODO:|\bFIXME:|\bstill need to\b|\bleft to do\b|\bfollow[- ]up:|\bnext steps?:/,
  },
  {
    type: 'BugFix',
    pattern: /\broot cause\b|\bthe bug (?:was|is)\b|\bthe (?:issue|problem) was\b|\bwas caused by\b|\bcaused by a\b/i,
    unless: /\b(?:not sure|maybe|might|unclear|don't know)\b/i,
  },
  {
    type: 'ArchitectureNote',
    pattern: /^architecture(?: note)?:|\bis responsible for\b|\bsits between\b/i,
  },
];

/** Keyword markers in prose: one per sentence, the first rule that matches. Questions say nothing. */
export function keywordMarkers(sentences: readonly string[]): Marker[] {
  const out: Marker[] = [];
  for (const sentence of sentences) {
    if (sentence.length < 20 || sentence.endsWith('?')) continue;
    const rule = KEYWORD_RULES.find((r) => r.pattern.test(sentence) && !(r.unless?.test(sentence) ?? false));
    if (!rule) continue;
    out.push({
      type: rule.type,
      text: sentence,
      quote: sentence,
      source: 'keyword',
      resolved: rule.type === 'BugFix' && /\b(fixed|resolved)\b/i.test(sentence),
    });
  }
  return out;
}
