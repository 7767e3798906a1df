import type { MemoryItem } from '@memex/domain';
import { withoutHiddenCharacters } from './hidden-characters';
import { ageDays } from './scoring';

/**
 * What would open a block if it began a line: a heading, a quote, a list or a thematic break,
 * a fence, an ordered item, an HTML block, and what a line below would turn into a heading or
 * a table row (`= `, `| `); and a link reference definition (`[docs]: https://…`), which a
 * renderer takes for a link's target and does not show at all. Inside a line none of these
 * mean anything.
 */
const BLOCK_OPENER =
  /^(?:#{1,6}(?=\s|$)|>|[-+*=|](?=\s|$)|(?:[-*_=]\s*){3,}$|`{3,}|~{3,}|<|\[(?:[^\]\\]|\\.)+\]:\s*\S)/;
const ORDERED_OPENER = /^(\d{1,9})([.)])(?=\s|$)/;

/**
 * Item text as one line of markdown that a model reads as the session wrote it: line breaks
 * folded, and identifiers, paths, commands and code left exactly as written (`pg_isready`,
 * `__init__.py`, `<ruby>`, `[lint]`, `a*b`), because they are names in the code. Only what
 * could change the document's structure is escaped: a block opener at the start of the line
 * (the caller may put the text at the start of one) and a backtick left unpaired, which would
 * open a code span that swallows what follows it. Folding line breaks is what keeps an item in
 * its place: no text can start a heading, a fence or a new list item of its own. Characters
 * that reorder or hide text are removed first (`withoutHiddenCharacters`), so the model reads
 * what a person reviewing the item sees.
 */
export function inline(text: string, max = 400): string {
  return openerEscaped(inlineWithin(text, max));
}

/**
 * `inline` for text that follows other words on its line (`**title**: facts`, `Why: …`): no
 * block opens there, so "1. Authentication fixed" stays as written rather than "1\. …".
 */
export function inlineWithin(text: string, max = 400): string {
  const flat = withoutHiddenCharacters(text).replace(/\s+/g, ' ').trim();
  return pairedTicks(flat.length <= max ? flat : shortened(flat, max));
}

/**
 * Text past its room ends where a sentence of it ends, when one ends in the latter half;
 * otherwise at a word, marked with an ellipsis. A note cut mid-word reads as a fragment.
 */
function shortened(text: string, max: number): string {
  const room = text.slice(0, max);
  const sentenceEnd = Math.max(...[...room.matchAll(/[.!?](?=\s)/g)].map((m) => m.index ?? 0), 0);
  if (sentenceEnd >= max / 2) return room.slice(0, sentenceEnd + 1);
  const space = room.lastIndexOf(' ', max - 1);
  return `${room.slice(0, space >= max / 2 ? space : max - 1).replace(/[\s,;:]+$/, '')}…`;
}

/** An odd backtick out is shown as a literal one, so it cannot open a span past the text's end. */
function pairedTicks(text: string): string {
  const ticks = text.match(/`/g)?.length ?? 0;
  if (ticks % 2 === 0) return text;
  const last = text.lastIndexOf('`');
  // Already escaped (an odd run of backslashes before it): it is literal as it stands.
  const slashes = /\\*$/.exec(text.slice(0, last))![0].length;
  return slashes % 2 === 1 ? text : `${text.slice(0, last)}\\${text.slice(last)}`;
}

function openerEscaped(text: string): string {
  if (ORDERED_OPENER.test(text)) return text.replace(ORDERED_OPENER, '$1\\$2');
  return BLOCK_OPENER.test(text) ? `\\${text}` : text;
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

/** What a line shows of an item's facts and why, in characters, at its usual room. */
export const LINE_ROOM = { facts: 300, rationale: 200, compactFacts: 160 } as const;
/**
 * The most a brain with budget to spare widens a line's room by (`assembleBrain`). A reader
 * of items for the brain needs no more of their text than `LINE_ROOM × WIDEST_ROOM`.
 */
export const WIDEST_ROOM = 4;

/**
 * A Layer 1 line: title, facts, why, and the metadata a reader weighs it by. `room` widens
 * what the facts and why may take (1: their usual room), for a brain with budget to spare.
 */
export function richLine(item: MemoryItem, now: Date, related: number, room = 1): string {
  const meta = [
    `conf ${item.confidence.toFixed(2)}`,
    `imp ${item.importance ?? 3}`,
    ...(item.tags.length ? [item.tags.map((t) => `#${t}`).join(' ')] : []),
    ...(item.files.length
      ? [
          `files: ${item.files
            .slice(0, 4)
            .map((f) => inlineWithin(f, 80))
            .join(', ')}${item.files.length > 4 ? ` +${item.files.length - 4}` : ''}`,
        ]
      : []),
    age(item, now),
    ...(related > 0 ? [`+${related} related`] : []),
  ];
  const why = item.rationale ? ` Why: ${inlineWithin(item.rationale, LINE_ROOM.rationale * room)}` : '';
  const facts = pastTitle(item);
  return `- **${inlineWithin(item.title, 200)}**${facts ? `: ${inlineWithin(facts, LINE_ROOM.facts * room)}` : ''}${why} (${meta.join(' · ')})`;
}

/** A Layer 2 line: compact, confidence and files only; `room` as for `richLine`. */
export function compactLine(item: MemoryItem, related: number, room = 1): string {
  const files = item.files.length
    ? `; ${item.files
        .slice(0, 2)
        .map((f) => inlineWithin(f, 60))
        .join(', ')}`
    : '';
  const more = related > 0 ? `; +${related} related` : '';
  const facts = pastTitle(item);
  return `- ${inline(item.title, 160)}${facts ? `: ${inlineWithin(facts, LINE_ROOM.compactFacts * room)}` : ''} (${item.confidence.toFixed(2)}${files}${more})`;
}
