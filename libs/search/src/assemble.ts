import { defaultEstimate } from '@memex/brain';
import { describePattern, recencyScore } from '@memex/entities';
import { detectIntent, typeWeight, type Intent } from './intent';
import {
  customLine,
  cutHeader,
  entityLine,
  eventLine,
  header,
  itemLine,
  patternLine,
  relationLine,
  shortItemLine,
  type HeaderCounts,
} from './pack-lines';
import { SOURCES, type ComponentType, type ContextStrategy, type Source } from './strategy';
import type { AssembledContext, AssemblyRequest, ContextComponent, PackStack } from './pack-request';

/**
 * spec/context-assembly.md steps 3–5: every source's results scored on recency, relevance and
 * salience, combined by the strategy's weights, selected greedily within each source's share
 * of the budget and then by score over what is left, the lowest-scored compressed (extractive:
 * a title and first sentence) when they do not fit whole, and laid out as one markdown
 * document that never exceeds the budget.
 */

/** A component before selection: its full and compressed lines, and its scores. */
interface Scored {
  type: ComponentType;
  /** The source whose allocation it draws on; a task frame has none of its own. */
  pool: Source | 'stack';
  source: string;
  full: string;
  short?: string;
  /** A task frame's line cut to about this many characters of text: the stack always shows its goal. */
  fit?: (chars: number) => string;
  finalScore: number;
  shownScore: number;
  /** Order among equals: stable across runs. */
  tie: string;
  evidence?: string[];
}

/** Stack frames get these shares first (spec "Stack-Aware Assembly"): root, path, finished siblings. */
const STACK_SHARE = { root: 0.05, path: 0.15, done: 0.1 };
/** Where each type prints, top to bottom: the task first, recent activity last. */
const ORDER: ComponentType[] = ['custom', 'semantic', 'entity', 'relation', 'pattern', 'recent'];
const ENTITY_RECENCY_HOURS = 24 * 7;

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function combine(strategy: ContextStrategy, s: { recency: number; relevance: number; salience: number }): number {
  return clamp01(
    strategy.recencyWeight * clamp01(s.recency) +
      strategy.relevanceWeight * clamp01(s.relevance) +
      strategy.salienceWeight * clamp01(s.salience),
  );
}

function scoreAll(request: AssemblyRequest, intent: Intent): Scored[] {
  const { strategy, now } = request;
  const out: Scored[] = [];

  // Items: relevance × the intent's type weight, over the best; an item offered twice counts once.
  const weighted = request.candidates
    .map((c) => ({ c, score: (Number.isFinite(c.relevance) ? c.relevance : 0) * typeWeight(intent, c.type) }))
    .sort((a, b) => b.score - a.score || byText(a.c.itemId, b.c.itemId));
  const seen = new Set<string>();
  const ranked = weighted.filter(({ c }) => !seen.has(c.itemId) && seen.add(c.itemId));
  const best = ranked[0]?.score ?? 0;
  for (const { c, score } of ranked) {
    const relevance = best > 0 ? Math.max(0, score / best) : 0;
    const final = combine(strategy, {
      relevance,
      recency: c.updatedAt !== undefined ? recencyScore(c.updatedAt, now) : 0,
      salience: c.salience ?? 0.5,
    });
    out.push({
      type: 'semantic',
      pool: 'semantic',
      source: c.itemId,
      full: itemLine(c),
      short: shortItemLine(c),
      finalScore: final,
      shownScore: final,
      tie: c.itemId,
    });
  }

  const keywords = request.keywords ?? [];
  for (const e of request.recent ?? []) {
    const recency = recencyScore(e.occurredAt, now);
    const text = e.content.toLowerCase();
    const relevance = keywords.length > 0 ? keywords.filter((k) => text.includes(k)).length / keywords.length : 0;
    out.push({
      type: 'recent',
      pool: 'recent',
      source: e.eventId,
      full: eventLine(e, now),
      short: eventLine(e, now, true),
      finalScore: combine(strategy, { recency, relevance, salience: 0.5 }),
      shownScore: recency,
      // Newest first among recent events, whatever else they score.
      tie: `${String(Number.MAX_SAFE_INTEGER - e.occurredAt).padStart(20, '0')}:${e.eventId}`,
    });
  }

  for (const e of request.entities ?? []) {
    const final = combine(strategy, {
      relevance: e.mentioned ? 1 : 0.3,
      recency: Math.exp(-Math.max(0, now - e.lastSeenAt) / 3_600_000 / ENTITY_RECENCY_HOURS),
      salience: e.salience,
    });
    out.push({
      type: 'entity',
      pool: 'entity',
      source: e.entityId,
      full: entityLine(e, now),
      short: entityLine(e, now, true),
      finalScore: final,
      shownScore: final,
      tie: `${e.kind}:${e.name}`,
    });
  }

  const strongest = Math.max(1, ...(request.relations ?? []).map((r) => r.weight));
  for (const r of request.relations ?? []) {
    const final = combine(strategy, {
      relevance: (r.weight / strongest) * Math.pow(0.7, Math.max(0, r.depth - 1)),
      recency: 0.5,
      salience: 1 - Math.exp(-r.weight / 3),
    });
    const id = `${r.source.kind}:${r.source.name}|${r.kind}|${r.target.kind}:${r.target.name}`;
    out.push({
      type: 'relation',
      pool: 'relation',
      source: id,
      full: relationLine(r),
      finalScore: final,
      shownScore: final,
      tie: id,
    });
  }

  for (const p of request.patterns ?? []) {
    const final = combine(strategy, {
      relevance: p.match,
      recency: recencyScore(p.lastSeenAt, now),
      salience: 1 - Math.exp(-p.occurrences / 3),
    });
    const evidence = p.fixes[0]?.eventIds ?? [];
    const description = describePattern(p);
    out.push({
      type: 'pattern',
      pool: 'pattern',
      source: p.signature,
      full: patternLine(description, evidence),
      short: patternLine(description, evidence, true),
      finalScore: final,
      shownScore: final,
      tie: p.signature,
      ...(evidence.length > 0 ? { evidence } : {}),
    });
  }
  return out;
}

function stackComponents(
  stack: PackStack | undefined,
  additional: string | undefined,
): Array<Scored & { share: number }> {
  const out: Array<Scored & { share: number }> = [];
  const add = (label: string, id: string, text: string, share: number) =>
    out.push({
      type: 'custom',
      pool: 'stack',
      source: id,
      full: customLine(label, text),
      short: customLine(label, text, 100),
      fit: (chars: number) => customLine(label, text, chars),
      finalScore: 1,
      shownScore: 1,
      tie: id,
      share,
    });
  if (stack) {
    add('goal', stack.root.id, stack.root.goal, STACK_SHARE.root);
    for (const f of stack.path)
      add(
        f.status === 'complete' ? 'done' : 'doing',
        f.id,
        f.status === 'complete' && f.result ? f.result : f.goal,
        STACK_SHARE.path,
      );
    for (const f of stack.done) add('done', f.id, f.result ? `${f.goal} → ${f.result}` : f.goal, STACK_SHARE.done);
  }
  if (additional?.trim()) add('context', 'additionalContext', additional, 1);
  return out;
}

export function assembleContext(request: AssemblyRequest): AssembledContext {
  const estimate = request.estimateTokens ?? defaultEstimate;
  const maxTokens = Number.isFinite(request.maxTokens) ? Math.max(0, request.maxTokens) : 0;
  const intent = request.intent ?? detectIntent(request.query);
  const { strategy, query } = request;
  const compress = request.compress !== false;

  const stack = stackComponents(request.stack, request.additionalContext);
  const scored = scoreAll(request, intent);
  const offered = stack.length + scored.length;
  const counts = (chosen: Array<{ type: ComponentType }>): HeaderCounts => {
    const n = (t: ComponentType) => chosen.filter((c) => c.type === t).length;
    return {
      items: n('semantic'),
      events: n('recent'),
      ...(request.stack || request.additionalContext ? { tasks: n('custom') } : {}),
      ...(request.entities ? { entities: n('entity') } : {}),
      ...(request.relations ? { relations: n('relation') } : {}),
      ...(request.patterns ? { patterns: n('pattern') } : {}),
    };
  };
  const render = (chosen: Chosen[]) =>
    [
      header(query, intent, counts(chosen)),
      ...ORDER.flatMap((t) => chosen.filter((c) => c.type === t).map((c) => c.content)),
    ].join('\n');

  // Budgeted with the largest counts the header could show; the final one is no longer.
  let used = estimate(header(query, intent, counts([...stack, ...scored])));
  if (used > maxTokens) {
    const content = cutHeader(query, maxTokens, estimate);
    return { content, components: [], tokenCount: estimate(content), truncated: offered > 0, intent, strategy };
  }

  interface Chosen {
    type: ComponentType;
    scored: Scored;
    content: string;
    compressed: boolean;
  }
  const chosen: Chosen[] = [];
  const taken = new Set<Scored>();
  const spent: Record<string, number> = {};
  const take = (s: Scored, cap: number, pool: string, allowShort: boolean): boolean => {
    const lines = allowShort && compress && s.short ? [s.full, s.short] : [s.full];
    for (const [i, content] of lines.entries()) {
      const cost = estimate(`\n${content}`);
      if ((spent[pool] ?? 0) + cost > cap || used + cost > maxTokens) continue;
      spent[pool] = (spent[pool] ?? 0) + cost;
      used += cost;
      chosen.push({ type: s.type, scored: s, content, compressed: i > 0 });
      taken.add(s);
      return true;
    }
    return false;
  };

  // The task stack first, each part within its share; recent events next, within theirs, so
  // nothing else can crowd them out; then every other source within its share, best first.
  for (const s of stack) {
    const cap = Math.floor(maxTokens * s.share);
    if (take(s, cap, `stack:${s.share}`, true) || !s.fit || !compress) continue;
    // Still too long for its share: cut to what the share holds (4 characters a token, less
    // the label), shorter until it fits or nothing useful is left.
    for (let chars = cap * 4 - 16; chars >= 24; chars = Math.floor(chars / 2)) {
      if (take({ ...s, full: s.fit(chars), short: undefined }, cap, `stack:${s.share}`, false)) {
        chosen[chosen.length - 1]!.compressed = true;
        taken.add(s);
        break;
      }
    }
  }
  const bySource = (source: Source) =>
    scored
      .filter((s) => s.pool === source)
      .sort((a, b) =>
        source === 'recent' ? byText(a.tie, b.tie) : b.finalScore - a.finalScore || byText(a.tie, b.tie),
      );
  for (const source of SOURCES) {
    const cap = Math.floor((maxTokens * strategy.budgetAllocation[source]) / 100);
    // Recent events keep to their share: the rest of the budget is for memory.
    for (const s of bySource(source)) take(s, cap, source, source === 'recent');
  }
  // What is left goes by combined score across sources, whole first; the lowest-scored, which
  // come last, are compressed when only that fits.
  const rest = scored
    .filter((s) => !taken.has(s) && s.pool !== 'recent')
    .sort((a, b) => b.finalScore - a.finalScore || byText(a.tie, b.tie));
  for (const s of rest) take(s, Infinity, 'rest', false);
  if (compress) for (const s of rest.filter((r) => !taken.has(r))) take(s, Infinity, 'rest', true);

  // Summed pieces bound the whole for a length-based estimate; any other is checked, and the
  // lowest-scored components dropped (recent events last), until the document fits.
  let content = render(chosen);
  while (estimate(content) > maxTokens && chosen.length > 0) {
    const others = chosen.filter((c) => c.type !== 'recent' && c.type !== 'custom');
    const pool =
      others.length > 0
        ? others
        : chosen.filter((c) => c.type === 'recent').length > 0
          ? chosen.filter((c) => c.type === 'recent')
          : chosen;
    const victim = pool.reduce((low, c) =>
      c.scored.finalScore < low.scored.finalScore ||
      (c.scored.finalScore === low.scored.finalScore && c.scored.tie > low.scored.tie)
        ? c
        : low,
    );
    chosen.splice(chosen.indexOf(victim), 1);
    content = render(chosen);
  }
  if (estimate(content) > maxTokens) content = cutHeader(query, maxTokens, estimate);

  const ordered = ORDER.flatMap((t) => chosen.filter((c) => c.type === t));
  const components: ContextComponent[] = ordered.map((c) => ({
    type: c.type,
    source: c.scored.source,
    content: c.content,
    tokens: estimate(c.content),
    relevanceScore: c.scored.shownScore,
    ...(c.compressed ? { compressed: true as const } : {}),
    ...(c.scored.evidence ? { evidence: c.scored.evidence } : {}),
  }));
  return {
    content,
    components,
    tokenCount: estimate(content),
    truncated: components.length < offered || components.some((c) => c.compressed),
    intent,
    strategy,
  };
}
