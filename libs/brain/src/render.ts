import type { MemoryItem } from '@memex/domain';
import { ageDays } from './scoring';

/**
 * Item text as one inert line of markdown: line breaks folded, and nothing left that could
 * open a code span, an HTML block or a comment. Headings and fences only start at the
 * beginning of a line, and every item line starts with "- ", so session text cannot change
 * the document's structure.
 */
export function inline(text: string, max = 400): string {
  const flat = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\\/g, '\\\\')
    .replace(/`/g, '\\`')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\*/g, '\\*')
    .replace(/_/g, '\\_')
    .replace(/\[/g, '\\[')
    .replace(/]/g, '\\]');
  const cut = flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\\$/, '')}…`;
  // At the start of a list item these would open a heading, fence, quote, list or table.
  return cut.replace(/^([#~=+\-|])/, '\\$1').replace(/^(\d+)([.)])/, '$1\\$2');
}

export function age(item: MemoryItem, now: Date): string {
  const days = Math.floor(ageDays(item, now));
  return days === 0 ? 'today' : `${days}d ago`;
}

/**
 * The facts as a line shows them after the title: what they say past it. Engines often open
 * an item's facts with its title; a reader should not read it twice.
 */
function pastTitle(item: MemoryItem): string {
  const title = item.title
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.…]+$/, '');
  const facts = item.facts.replace(/\s+/g, ' ').trim();
  const head = facts.slice(0, title.length);
  // Only a whole title: "Use cache" does not begin "Use caches for builds".
  const whole =
    title.length > 0 &&
    head.toLowerCase() === title.toLowerCase() &&
    !/^[\p{L}\p{N}_]/u.test(facts.slice(title.length));
  return whole ? facts.slice(title.length).replace(/^[\s.:;,—–-]+/, '') : facts;
}

/** A Layer 1 line: title, facts, why, and the metadata a reader weighs it by. */
export function richLine(item: MemoryItem, now: Date, related: number): string {
  const meta = [
    `conf ${item.confidence.toFixed(2)}`,
    `imp ${item.importance ?? 3}`,
    ...(item.tags.length ? [item.tags.map((t) => `#${t}`).join(' ')] : []),
    ...(item.files.length
      ? [
          `files: ${item.files
            .slice(0, 4)
            .map((f) => inline(f, 80))
            .join(', ')}${item.files.length > 4 ? ` +${item.files.length - 4}` : ''}`,
        ]
      : []),
    age(item, now),
    ...(related > 0 ? [`+${related} related`] : []),
  ];
  const why = item.rationale ? ` Why: ${inline(item.rationale, 200)}` : '';
  const facts = pastTitle(item);
  return `- **${inline(item.title, 200)}**${facts ? `: ${inline(facts, 300)}` : ''}${why} (${meta.join(' · ')})`;
}

/** A Layer 2 line: compact, confidence and files only. */
export function compactLine(item: MemoryItem, related: number): string {
  const files = item.files.length
    ? `; ${item.files
        .slice(0, 2)
        .map((f) => inline(f, 60))
        .join(', ')}`
    : '';
  const more = related > 0 ? `; +${related} related` : '';
  const facts = pastTitle(item);
  return `- ${inline(item.title, 160)}${facts ? `: ${inline(facts, 160)}` : ''} (${item.confidence.toFixed(2)}${files}${more})`;
}
