import { inline, inlineWithin, withoutHiddenCharacters } from '@memex/brain';
import { HIGHLIGHT } from '@memex/domain';
import type { ItemView, SearchResultView } from '@memex/domain';
import type { ContextPackView } from './memory-port';

/** The fields of an item the tools show. */
export type ShownItem = Pick<
  ItemView,
  'itemId' | 'type' | 'status' | 'title' | 'facts' | 'rationale' | 'files' | 'tags' | 'confidence' | 'updatedAt'
>;
/** The fields of a search hit the tools show. */
export type ShownHit = Pick<SearchResultView, 'itemId' | 'snippet'> & {
  item: Pick<SearchResultView['item'], 'type' | 'status' | 'title' | 'files'>;
};

/**
 * Tool results are read by a model: compact markdown, with ids it can pass to memex_get_item.
 * Item text came from sessions, so it is rendered inert the way the brain renders it (one
 * line, nothing that opens a heading, fence, HTML or link), whole: a tool shows an item in full.
 */
const inert = (text: string): string => inline(text, Infinity);
/** The same, for text after other words on its line, where no block opens ("Rationale: 1. …"). */
const inertWithin = (text: string): string => inlineWithin(text, Infinity);

/**
 * Everything a tool or resource hands the model, its text and its structured content (which
 * clients may show the model as JSON), with the characters that reorder or hide text removed:
 * the rule is `withoutHiddenCharacters`, which every line the formatters write already went
 * through; this catches what reaches the model unformatted (ids, error messages, the
 * structured copy of an item).
 */
export function forModel<T>(value: T): T {
  if (typeof value === 'string') return withoutHiddenCharacters(value) as T;
  if (Array.isArray(value)) return value.map(forModel) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forModel(v)])) as T;
  }
  return value;
}

/** Highlighted words of a snippet in bold; the markers go round the neutralising, the text through it. */
function snippetLine(snippet: string): string {
  const marked = snippet
    .replace(/[\uE000\uE001]/g, '')
    .replaceAll(HIGHLIGHT.start, '\uE000')
    .replaceAll(HIGHLIGHT.stop, '\uE001');
  return inert(marked).replace(/[\uE000\uE001]/g, '**');
}

export function formatItem(item: ShownItem): string {
  const lines = [
    `## ${inertWithin(item.title)}`,
    `${item.type} · ${item.status} · confidence ${item.confidence} · updated ${item.updatedAt.slice(0, 10)} · id ${item.itemId}`,
    '',
    inert(item.facts),
  ];
  if (item.rationale) lines.push('', `Rationale: ${inertWithin(item.rationale)}`);
  if (item.files.length) lines.push('', `Files: ${item.files.map(inertWithin).join(', ')}`);
  if (item.tags.length) lines.push(`Tags: ${item.tags.join(', ')}`);
  return lines.join('\n');
}

export function formatSearchResults(query: string, results: ShownHit[]): string {
  if (results.length === 0) return `No memory items match "${inertWithin(query)}".`;
  const lines = results.map((r, i) => {
    const files = r.item.files.length ? ` (${r.item.files.slice(0, 3).map(inertWithin).join(', ')})` : '';
    const snippet = r.snippet.trim() ? `\n   ${snippetLine(r.snippet)}` : '';
    return `${i + 1}. [${r.item.type}, ${r.item.status}] ${inertWithin(r.item.title)}${files} — id ${r.itemId}${snippet}`;
  });
  return [`${results.length} item(s) for "${inertWithin(query)}":`, ...lines].join('\n');
}

/** The pack's content is rendered inert where it is assembled (libs/search). */
export function formatContextPack(pack: ContextPackView): string {
  if (!pack.content.trim()) return 'Nothing in memory is relevant to this query.';
  return `${pack.content}\n\n(${pack.tokenCount} tokens${pack.truncated ? ', truncated to fit the budget' : ''})`;
}

export function formatDecisions(items: ShownItem[]): string {
  if (items.length === 0) return '# Decisions\n\nNo active decisions are recorded yet.';
  const entries = items.map((d) => {
    const why = d.rationale ? `\n  Why: ${inertWithin(d.rationale)}` : '';
    return `- **${inertWithin(d.title)}** (${d.updatedAt.slice(0, 10)}, id ${d.itemId})\n  ${inert(d.facts)}${why}`;
  });
  return ['# Decisions', '', ...entries].join('\n');
}

/** What memex_remember answers: the new item named as the model will see it later. */
export function formatRemembered(item: ShownItem): string {
  return `Remembered ${item.type} "${inertWithin(item.title)}" as item ${item.itemId}.`;
}
