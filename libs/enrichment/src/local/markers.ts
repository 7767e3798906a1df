import type { ItemType } from '@memex/domain';

export interface Marker {
  type: ItemType;
  /** The tag's text. */
  text: string;
  /** The verbatim text to quote as evidence. */
  quote: string;
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

/**
 * A text with its tags taken out: each tag is an item of its own, and read again as the
 * assistant's prose it made a second item quoting the tags ("[MEMORY: decision: …]" as a title).
 */
export function withoutMemoryTags(text: string): string {
  // A tag of no known type ("[MEMORY: gotcha: …]") makes no item: it stays the assistant's words.
  return text.replace(TAG, (tag, type: string) => (TAG_TYPES[type.toLowerCase()] ? '' : tag)).trim();
}

/** Explicit self-reports: `[MEMORY: decision: Use Kysely for every query]`. */
export function memoryTags(content: string): Marker[] {
  const out: Marker[] = [];
  for (const m of content.matchAll(TAG)) {
    const type = TAG_TYPES[m[1]!.toLowerCase()];
    if (!type) continue;
    const text = m[2]!.trim();
    out.push({ type, text, quote: m[0], resolved: /\b(fixed|resolved|done)\b/i.test(text) });
  }
  return out;
}
