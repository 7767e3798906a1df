import type { ContextPackView, ItemView, SearchResultView } from './memory-port';

/** Tool results are read by a model: compact markdown, with ids it can pass to memex_get_item. */

export function formatItem(item: ItemView): string {
  const lines = [
    `## ${item.title}`,
    `${item.type} · ${item.status} · confidence ${item.confidence} · updated ${item.updatedAt.slice(0, 10)} · id ${item.itemId}`,
    '',
    item.facts,
  ];
  if (item.rationale) lines.push('', `Rationale: ${item.rationale}`);
  if (item.files.length) lines.push('', `Files: ${item.files.join(', ')}`);
  if (item.tags.length) lines.push(`Tags: ${item.tags.join(', ')}`);
  return lines.join('\n');
}

export function formatSearchResults(query: string, results: SearchResultView[]): string {
  if (results.length === 0) return `No memory items match "${query}".`;
  const lines = results.map((r, i) => {
    const files = r.item.files.length ? ` (${r.item.files.slice(0, 3).join(', ')})` : '';
    const snippet = r.snippet ? `\n   ${r.snippet.replace(/\s+/g, ' ').trim()}` : '';
    return `${i + 1}. [${r.item.type}, ${r.item.status}] ${r.item.title}${files} — id ${r.itemId}${snippet}`;
  });
  return [`${results.length} item(s) for "${query}":`, ...lines].join('\n');
}

export function formatContextPack(pack: ContextPackView): string {
  if (!pack.content.trim()) return 'Nothing in memory is relevant to this query.';
  return `${pack.content}\n\n(${pack.tokenCount} tokens${pack.truncated ? ', truncated to fit the budget' : ''})`;
}

export function formatDecisions(items: ItemView[]): string {
  if (items.length === 0) return '# Decisions\n\nNo active decisions are recorded yet.';
  const entries = items.map((d) => {
    const why = d.rationale ? `\n  Why: ${d.rationale}` : '';
    return `- **${d.title}** (${d.updatedAt.slice(0, 10)}, id ${d.itemId})\n  ${d.facts.replace(/\n+/g, ' ')}${why}`;
  });
  return ['# Decisions', '', ...entries].join('\n');
}
