import { defaultEstimate, inline } from '@memex/brain';
import type { ItemStatus, ItemType } from '@memex/domain';
import { detectIntent, typeWeight, type Intent } from './intent';

/**
 * The Context of spec/context-assembly.md, simplified: the memory items search found for a
 * query, reweighted by what the query asks for, and the latest session events, as one markdown
 * document that never exceeds the token budget.
 */

export interface PackCandidate {
  itemId: string;
  type: ItemType;
  title: string;
  facts: string;
  rationale: string | null;
  files: string[];
  status: ItemStatus;
  /** Fused search score, higher is better. */
  relevance: number;
}

export interface PackEvent {
  eventId: string;
  type: string;
  /** Epoch milliseconds, as `now`. */
  occurredAt: number;
  content: string;
}

export interface ContextComponent {
  type: 'semantic' | 'recent';
  /** The itemId or eventId it shows. */
  source: string;
  /** Its line in the document. */
  content: string;
  tokens: number;
  /** 0..1: relevance × type weight over the best candidate's, or the event's recency. */
  relevanceScore: number;
}

export interface ContextPack {
  content: string;
  /** In document order. */
  components: ContextComponent[];
  tokenCount: number;
  /** Some candidate or event was left out for lack of room. */
  truncated: boolean;
  intent: Intent;
}

export interface PackRequest {
  query: string;
  maxTokens: number;
  candidates: PackCandidate[];
  recent?: PackEvent[];
  /** Epoch milliseconds. */
  now: number;
  estimateTokens?: (text: string) => number;
}

/** Recent events take at most this share of the budget; items take the rest. */
export const RECENT_SHARE = 0.15;
const RECENCY_HALF_LIFE_HOURS = 24;
const QUERY_CHARS = 120;
const TITLE_CHARS = 200;
const FACTS_CHARS = 400;
const RATIONALE_CHARS = 200;
const EVENT_CHARS = 300;
const FILES_SHOWN = 4;
const HOUR_MS = 3_600_000;

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

/** Memory text is data: one inert line of markdown (see `inline`), cut at a word boundary. */
const inert = (text: string, max: number) => inline(cutWords(text, max), Infinity);

function itemLine(candidate: PackCandidate): string {
  const label = candidate.status === 'active' ? candidate.type : `${candidate.type} · ${candidate.status}`;
  const why = candidate.rationale ? ` _Why:_ ${inert(candidate.rationale, RATIONALE_CHARS)}` : '';
  const shown = candidate.files.slice(0, FILES_SHOWN).map((f) => inert(f, 120));
  const more = candidate.files.length > FILES_SHOWN ? ` +${candidate.files.length - FILES_SHOWN} more` : '';
  const files = shown.length > 0 ? ` _Files:_ ${shown.join(', ')}${more}` : '';
  return `- **[${label}] ${inert(candidate.title, TITLE_CHARS)}** — ${inert(candidate.facts, FACTS_CHARS)}${why}${files}`;
}

function age(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 60) return `${minutes}m ago`;
  if (minutes < 60 * 24) return `${Math.floor(minutes / 60)}h ago`;
  return `${Math.floor(minutes / (60 * 24))}d ago`;
}

function eventLine(event: PackEvent, now: number): string {
  return `- _recent ${inert(event.type, 60)} · ${age(now - event.occurredAt)}:_ ${inert(event.content, EVENT_CHARS)}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function header(query: string, intent: Intent, items: number, events: number): string {
  return (
    `# Context for: ${inert(query, QUERY_CHARS)}\n` +
    `_intent: ${intent} · ${plural(items, 'item')} · ${plural(events, 'recent event')}_`
  );
}

/** When even the header is over budget: its first line with the query cut until it fits, or nothing. */
function cutHeader(query: string, maxTokens: number, estimate: (text: string) => number): string {
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

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function assembleContextPack(request: PackRequest): ContextPack {
  const { query, now } = request;
  const estimate = request.estimateTokens ?? defaultEstimate;
  const maxTokens = Number.isFinite(request.maxTokens) ? Math.max(0, request.maxTokens) : 0;
  const intent = detectIntent(query);

  // Rank candidates; an item offered twice counts once, at its better score.
  const weighted = request.candidates
    .map((candidate) => {
      const relevance = Number.isFinite(candidate.relevance) ? candidate.relevance : 0;
      return { candidate, score: relevance * typeWeight(intent, candidate.type) };
    })
    .sort((a, b) => b.score - a.score || byText(a.candidate.itemId, b.candidate.itemId));
  const seen = new Set<string>();
  const ranked = weighted.filter(({ candidate }) => !seen.has(candidate.itemId) && seen.add(candidate.itemId));
  const best = ranked[0]?.score ?? 0;

  const events = [...(request.recent ?? [])].sort(
    (a, b) => b.occurredAt - a.occurredAt || byText(a.eventId, b.eventId),
  );

  // Budgeted with the largest counts the header could show; the final one is no longer.
  let used = estimate(header(query, intent, ranked.length, events.length));
  if (used > maxTokens) {
    const content = cutHeader(query, maxTokens, estimate);
    return {
      content,
      components: [],
      tokenCount: estimate(content),
      truncated: ranked.length + events.length > 0,
      intent,
    };
  }

  // Events first, within their share, so items cannot crowd them out; they print last.
  const recent: ContextComponent[] = [];
  let recentUsed = 0;
  const recentBudget = Math.floor(maxTokens * RECENT_SHARE);
  for (const event of events) {
    const content = eventLine(event, now);
    const cost = estimate(`\n${content}`);
    if (recentUsed + cost > recentBudget || used + cost > maxTokens) continue;
    recentUsed += cost;
    used += cost;
    const ageHours = Math.max(0, now - event.occurredAt) / HOUR_MS;
    recent.push({
      type: 'recent',
      source: event.eventId,
      content,
      tokens: estimate(content),
      relevanceScore: Math.exp(-ageHours / RECENCY_HALF_LIFE_HOURS),
    });
  }

  // Greedy in rank order: a line that does not fit is skipped, so smaller ones fill the tail.
  const items: ContextComponent[] = [];
  for (const { candidate, score } of ranked) {
    const content = itemLine(candidate);
    const cost = estimate(`\n${content}`);
    if (used + cost > maxTokens) continue;
    used += cost;
    items.push({
      type: 'semantic',
      source: candidate.itemId,
      content,
      tokens: estimate(content),
      relevanceScore: best > 0 ? Math.max(0, score / best) : 0,
    });
  }

  // Summed pieces bound the whole for a length-based estimate; any other is checked, and the
  // last components dropped, until the document fits.
  let content = render(query, intent, items, recent);
  while (estimate(content) > maxTokens && items.length + recent.length > 0) {
    if (items.length > 0) items.pop();
    else recent.pop();
    content = render(query, intent, items, recent);
  }
  if (estimate(content) > maxTokens) content = cutHeader(query, maxTokens, estimate);

  const components = [...items, ...recent];
  return {
    content,
    components,
    tokenCount: estimate(content),
    truncated: items.length < ranked.length || recent.length < events.length,
    intent,
  };
}

function render(query: string, intent: Intent, items: ContextComponent[], recent: ContextComponent[]): string {
  return [
    header(query, intent, items.length, recent.length),
    ...items.map((c) => c.content),
    ...recent.map((c) => c.content),
  ].join('\n');
}
