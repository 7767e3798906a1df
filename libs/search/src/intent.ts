import type { ItemType } from '@memex/domain';

/** What a query asks for, which decides the kinds of memory worth the most to it. */
export type Intent = 'fix' | 'explain' | 'question' | 'action';

// Whole words only, so `prefix`, `debugger` or `whyever` do not count; common inflections do.
const FIX = /\b(?:fix(?:es|ed|ing)?|errors?|bugs?|broken|fail(?:s|ed|ing|ures?)?|crash(?:es|ed|ing)?|exceptions?)\b/i;
/** Exception and error class names, `TypeError`, `NullPointerException`: a word of their own. */
const ERROR_CLASS = /[a-z](?:Error|Exception)s?\b/;
const EXPLAIN = /\b(?:explain(?:s|ed|ing)?|how\s+(?:does|do)|what\s+(?:is|are)|what['’]s|why|walk\s+me\s+through)\b/i;

/** The first that applies of fix, explain, question (a `?`) and action, as in spec/context-assembly.md. */
export function detectIntent(query: string): Intent {
  if (FIX.test(query) || ERROR_CLASS.test(query)) return 'fix';
  if (EXPLAIN.test(query)) return 'explain';
  if (query.includes('?')) return 'question';
  return 'action';
}

/**
 * Multipliers of an item's search relevance by its type, per intent:
 *
 * | type               | fix | explain | question | action |
 * | ------------------ | --- | ------- | -------- | ------ |
 * | BugFix             | 1.6 | 0.9     | 1.0      | 1.0    |
 * | Convention         | 1.1 | 1.0     | 1.1      | 1.3    |
 * | ImplementationFact | 1.0 | 1.0     | 1.0      | 1.2    |
 * | Decision           | 0.9 | 1.4     | 1.15     | 1.0    |
 * | ArchitectureNote   | 0.9 | 1.5     | 1.15     | 1.0    |
 * | Todo               | 0.9 | 0.8     | 0.9      | 1.2    |
 * | CodeMapNode        | 0.5 | 1.0     | 0.8      | 0.8    |
 *
 * A fix wants the past fix first and the rules it must keep; an explanation wants the why
 * (architecture, decisions) and may use the code map; a plain question leans the same way,
 * mildly; an action wants the conventions to follow, the open tasks and how the code is
 * built. Multipliers stay within 0.5..1.6 so a much better match still wins over a type.
 */
const WEIGHTS: Record<Intent, Record<ItemType, number>> = {
  fix: {
    BugFix: 1.6,
    Convention: 1.1,
    ImplementationFact: 1.0,
    Decision: 0.9,
    ArchitectureNote: 0.9,
    Todo: 0.9,
    CodeMapNode: 0.5,
  },
  explain: {
    BugFix: 0.9,
    Convention: 1.0,
    ImplementationFact: 1.0,
    Decision: 1.4,
    ArchitectureNote: 1.5,
    Todo: 0.8,
    CodeMapNode: 1.0,
  },
  question: {
    BugFix: 1.0,
    Convention: 1.1,
    ImplementationFact: 1.0,
    Decision: 1.15,
    ArchitectureNote: 1.15,
    Todo: 0.9,
    CodeMapNode: 0.8,
  },
  action: {
    BugFix: 1.0,
    Convention: 1.3,
    ImplementationFact: 1.2,
    Decision: 1.0,
    ArchitectureNote: 1.0,
    Todo: 1.2,
    CodeMapNode: 0.8,
  },
};

export function typeWeight(intent: Intent, type: ItemType): number {
  return WEIGHTS[intent][type];
}

/**
 * The kinds of memory a question asks for by its shape, whatever words it shares with them:
 * "how should I format commit messages?" asks for a Convention ("commit headers must be 72
 * characters or fewer" shares no word with it), "why did we pick X?" for a Decision, "how did
 * we fix …" for a BugFix, "what's still open?" for a Todo.
 */
const SOUGHT: Array<[RegExp, ItemType]> = [
  [
    /\bhow (?:should|do|must|can|to) (?:i|we|you)\b|\b(?:conventions?|guidelines?|style ?guide|house rules?|our rules?)\b/i,
    'Convention',
  ],
  [
    /\bwhy (?:did|do|does|is|are|was|were|not|don'?t|didn'?t) (?:we|it|this|the|they|you)\b|\bwhat (?:was|were) (?:the )?(?:reason|alternatives?|options?)\b/i,
    'Decision',
  ],
  [
    /\b(?:how|what) (?:did we|was) (?:fix|the fix|the cause|the root cause)|\bfix(?:ed)? (?:it|this|that) (?:last time|before)\b|\bwhat fixed\b/i,
    'BugFix',
  ],
  [
    /\b(?:still (?:open|left|to do|unfinished|pending)|left to do|what'?s left|unfinished|remaining work|next steps?|todo)\b/i,
    'Todo',
  ],
];

export function soughtTypes(query: string): ItemType[] {
  return SOUGHT.filter(([pattern]) => pattern.test(query)).map(([, type]) => type);
}
