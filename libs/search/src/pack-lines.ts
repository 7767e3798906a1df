import { inlineWithin, withoutHiddenCharacters } from '@memex/brain';
import { ITEM_MENTIONS_COUNTED } from '@memex/entities';
import type { Intent } from './intent';

/** How one kind of memory reads as a line of a context pack: inert markdown, cut to size. */

const TITLE_CHARS = 200;
const FACTS_CHARS = 400;
const SHORT_FACTS_CHARS = 120;
const RATIONALE_CHARS = 200;
const EVENT_CHARS = 300;
const SHORT_EVENT_CHARS = 100;
const FILES_SHOWN = 4;
export const QUERY_CHARS = 120;

/**
 * Whitespace folded and the text cut to at most `max` characters, at a word boundary when
 * one is near, with an ellipsis. Cut before escaping, so an escape is never split.
 */
export function cutWords(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  if (max < 1) return '';
  const hard = flat.slice(0, max - 1);
  const space = hard.lastIndexOf(' ');
  // A word boundary in the last fifth, or else mid-word: one long token should not vanish.
  const cut = flat[max - 1] === ' ' || space < (max * 4) / 5 ? hard : hard.slice(0, space);
  return `${cut.trimEnd()}…`;
}

/**
 * Memory text is data: one inert line of markdown (see `inline`), cut at a word boundary.
 * Hidden characters go before the cut, so they take none of the line's room. Every pack line
 * opens with its own marker (`- **[Decision] `, `- _recent …:_ `, `# Context for: `), so the
 * text always follows other words and opens no block: "1. Auth fixed" stays as written.
 */
export const inert = (text: string, max: number) =>
  inlineWithin(cutWords(withoutHiddenCharacters(text), max), Infinity);

/** The first sentence of a text: what extractive compression keeps. */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](?:\s|$)/);
  return end > 0 ? flat.slice(0, end + 1) : flat;
}

/** What a pack line shows of an item. */
export interface PackLineItem {
  type: string;
  status: string;
  title: string;
  facts: string;
  rationale: string | null;
  files: string[];
}

export function itemLine(item: PackLineItem): string {
  const label = item.status === 'active' ? item.type : `${item.type} · ${item.status}`;
  const why = item.rationale ? ` _Why:_ ${inert(item.rationale, RATIONALE_CHARS)}` : '';
  const shown = item.files.slice(0, FILES_SHOWN).map((f) => inert(f, 120));
  const more = item.files.length > FILES_SHOWN ? ` +${item.files.length - FILES_SHOWN} more` : '';
  const files = shown.length > 0 ? ` _Files:_ ${shown.join(', ')}${more}` : '';
  return `- **[${label}] ${inert(item.title, TITLE_CHARS)}** — ${inert(item.facts, FACTS_CHARS)}${why}${files}`;
}

/** An item compressed: its title and the first sentence of its facts. */
export function shortItemLine(item: PackLineItem): string {
  return `- **[${item.type}] ${inert(item.title, TITLE_CHARS / 2)}** — ${inert(firstSentence(item.facts), SHORT_FACTS_CHARS)}`;
}

export function age(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 60) return `${minutes}m ago`;
  if (minutes < 60 * 24) return `${Math.floor(minutes / 60)}h ago`;
  return `${Math.floor(minutes / (60 * 24))}d ago`;
}

export function eventLine(
  event: { type: string; occurredAt: number; content: string },
  now: number,
  short = false,
): string {
  const text = short ? firstSentence(event.content) : event.content;
  return `- _recent ${inert(event.type, 60)} · ${age(now - event.occurredAt)}:_ ${inert(text, short ? SHORT_EVENT_CHARS : EVENT_CHARS)}`;
}

export function entityLine(
  entity: { kind: string; name: string; mentions: number; itemMentions: number; lastSeenAt: number },
  now: number,
  short = false,
): string {
  const head = `- _${inert(entity.kind, 20)}:_ **${inert(entity.name, short ? 80 : 160)}**`;
  if (short) return head;
  const items =
    entity.itemMentions >= ITEM_MENTIONS_COUNTED
      ? `, in ${ITEM_MENTIONS_COUNTED}+ items`
      : entity.itemMentions > 0
        ? `, in ${plural(entity.itemMentions, 'item')}`
        : '';
  return `${head} — named ${plural(entity.mentions, 'time')}${items}, last ${age(now - entity.lastSeenAt)}`;
}

export function relationLine(relation: {
  kind: string;
  weight: number;
  source: { kind: string; name: string };
  target: { kind: string; name: string };
}): string {
  const end = (e: { kind: string; name: string }) => `${inert(e.kind, 20)} ${inert(e.name, 120)}`;
  return `- _relation:_ ${end(relation.source)} —${inert(relation.kind, 30)}→ ${end(relation.target)} (${plural(Math.round(relation.weight), 'session')})`;
}

export function patternLine(description: string, evidence: string[], short = false): string {
  const shown = short ? [] : evidence.slice(0, 3).map((id) => inert(id, 80));
  return `- _pattern:_ ${inert(description, short ? 160 : 400)}${shown.length > 0 ? ` _Evidence:_ ${shown.join(', ')}` : ''}`;
}

export function customLine(label: string, text: string, maxChars = 300): string {
  return `- _${inert(label, 20)}:_ ${inert(text, maxChars)}`;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Counts shown in the header, besides the intent: items and events always, the rest when there are some. */
export interface HeaderCounts {
  items: number;
  events: number;
  entities?: number;
  relations?: number;
  patterns?: number;
  tasks?: number;
}

export function header(query: string, intent: Intent, counts: HeaderCounts): string {
  // Sources beyond items and events are counted only when they show something: a header is
  // paid for in every pack.
  const extra = [
    counts.tasks ? plural(counts.tasks, 'task') : '',
    counts.entities ? plural(counts.entities, 'entity').replace(/entitys$/, 'entities') : '',
    counts.relations ? plural(counts.relations, 'relation') : '',
    counts.patterns ? plural(counts.patterns, 'pattern') : '',
  ].filter(Boolean);
  return (
    `# Context for: ${inert(query, QUERY_CHARS)}\n` +
    `_intent: ${intent} · ${plural(counts.items, 'item')} · ${plural(counts.events, 'recent event')}` +
    `${extra.map((e) => ` · ${e}`).join('')}_`
  );
}

/** When even the header is over budget: its first line with the query cut until it fits, or nothing. */
export function cutHeader(query: string, maxTokens: number, estimate: (text: string) => number): string {
  const flat = query.replace(/\s+/g, ' ').trim();
  let best = '';
  let low = 0;
  let high = Math.min(flat.length, QUERY_CHARS);
  while (low <= high) {
    const mid = (low + high) >> 1;
    const line = `# Context for: ${inert(flat, mid)}`;
    if (estimate(line) <= maxTokens) {
      best = line;
      low = mid + 1;
    } else high = mid - 1;
  }
  return best;
}
