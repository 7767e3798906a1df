import { Inject, Injectable, Logger } from '@nestjs/common';
import { SearchRepository, type FullTextQuery, type SearchFilter, type SearchHit } from '@memex/db';
import {
  DomainError,
  ITEM_STATUSES,
  MAX_QUERY_WORDS,
  queryWords,
  toSearchItemView,
  type ContextPackBody,
  type ItemStatus,
  type ItemType,
  type SearchMode,
  type SearchQuery,
  type SearchResponseView,
} from '@memex/domain';
import { EMBEDDER, VECTOR_STORE, type Embedder, type VectorStore } from '@memex/retrieval';
import {
  assembleContext,
  anchorsQuery,
  contentStems,
  querySignals,
  reciprocalRankFusion,
  MATCH_FLOOR,
  resolveStrategy,
  soughtTypes,
  sharesContentWord,
  splitWebQuery,
  type PackCandidate,
  type PackStack,
} from '@memex/search';
import { RedactionService } from '@memex/server';
import { humanText, type TaskStack } from '@memex/entities';
import { PackSources, type EntitySources } from './pack-sources';

/** How deep each source ranks before fusion. */
const DEPTH = 50;
const RRF_K = 60;
/** Items a context pack chooses from. */
const PACK_CANDIDATES = 30;
const RECENT_EVENTS = 20;
/** The best hits whose sessions' other items a pack considers, and how many such items at most. */
const NEIGHBOUR_SOURCES = 3;
const AROUND_ITEMS = 12;
/** What an item found around a hit (same session, or a sought type) scores, as a share of the best hit. */
const AROUND_WEIGHT = 0.4;
/** Items the query's named entities point at, beside those search found. */
const LINKED_ITEMS = 20;
/**
 * What naming the entities a query names adds to an item's score, in units of search's best
 * hit: an exact name is as precise a signal as search has, so an item naming all of them
 * (or what they lead to, discounted by hops) goes ahead of search's best.
 */
const LINK_WEIGHT = 1.5;

/** What search shows by default: superseded and archived items only when asked for. */
const LIVE: readonly ItemStatus[] = ['active', 'stale', 'review'];

/** What a hit says, as its words are compared with the query's. */
const wordsOf = (hit: SearchHit) => `${hit.title} ${hit.facts} ${hit.files.join(' ')}`;

function statusesFor(status: ItemStatus | undefined, includeArchived: boolean): readonly ItemStatus[] {
  if (status) {
    if ((status === 'superseded' || status === 'archived') && !includeArchived) {
      throw new DomainError('VALIDATION_FAILED', `status=${status} needs includeArchived=true`, {
        issues: [{ path: 'status', message: 'superseded and archived items are searched with includeArchived=true' }],
      });
    }
    return [status];
  }
  return includeArchived ? ITEM_STATUSES : LIVE;
}

export interface RankedHit {
  hit: SearchHit;
  /** The fused score, 0–1: 1 when both sources rank the item first. */
  score: number;
  ranks: { fullText: number | null; vector: number | null };
  /** Each source's own score: full text's coverage of the query, the vector's cosine. */
  scores: { fullText: number | null; vector: number | null };
}

/** Hybrid retrieval: full text and vectors ranked apart, fused by reciprocal rank fusion (k = 60). */
@Injectable()
export class SearchService {
  private readonly logger = new Logger(SearchService.name);

  constructor(
    private readonly search: SearchRepository,
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    private readonly redaction: RedactionService,
    private readonly sources: PackSources,
  ) {}

  /**
   * A query holding a secret is redacted before it is searched, embedded (perhaps by a remote
   * model) or echoed: stored text holds only placeholders, so the secret itself could match
   * nothing anyway.
   */
  async query(projectId: string, sent: SearchQuery): Promise<SearchResponseView> {
    const started = performance.now();
    const q = { ...sent, q: await this.redaction.text(projectId, sent.q) };
    const statuses = statusesFor(q.status, q.includeArchived);
    const { sought, words, phrases, excluded } = splitWebQuery(q.q);
    const results = await this.ranked(
      projectId,
      { fullText: { words, phrases }, text: sought, vector: sought },
      q.mode,
      { statuses, types: q.type ? [q.type] : undefined, excluded },
      q.limit,
    );
    return {
      query: q.q,
      mode: q.mode,
      results: results.map(({ hit, score, ranks, scores }) => ({
        itemId: hit.itemId,
        score: round(score),
        ranks,
        scores: { fullText: scores.fullText && round(scores.fullText), vector: scores.vector && round(scores.vector) },
        snippet: hit.snippet,
        item: toSearchItemView(hit),
      })),
      tookMs: Math.round((performance.now() - started) * 10) / 10,
    };
  }

  /**
   * A context pack as spec/context-assembly.md builds one: the query's signals, then search,
   * recent events, the entities it names and the most salient, their relations to the
   * strategy's depth, error patterns seen before, and the session's task stack, gathered in
   * parallel and assembled within the budget (libs/search assembleContext).
   */
  async contextPack(projectId: string, sent: ContextPackBody) {
    const started = performance.now();
    const body = {
      ...sent,
      query: await this.redaction.text(projectId, sent.query),
      additionalContext: sent.additionalContext && (await this.redaction.text(projectId, sent.additionalContext)),
    };
    const { filters } = body;
    const statuses = filters.includeArchived ? ITEM_STATUSES : LIVE;
    const since =
      filters.since === undefined
        ? undefined
        : typeof filters.since === 'number'
          ? filters.since
          : Date.parse(filters.since);
    const exclude = new Set(filters.exclude ?? []);
    const signals = querySignals(body.query);
    const strategy = resolveStrategy(signals.intent, body.strategy);
    const now = Date.now();
    // A prompt may be long; its first words are what retrieval uses (see MAX_QUERY_WORDS). It
    // is a sentence, not a query: full text takes items sharing any of its words, ranked by
    // how many and how often, as requiring every word would rarely match anything.
    const words = queryWords(body.query).slice(0, MAX_QUERY_WORDS).join(' ');
    const session = body.sessionId ? await this.sources.stack(projectId, body.sessionId) : undefined;
    const [ranked, recent, found] = await Promise.all([
      words.length > 0
        ? this.ranked(
            projectId,
            { fullText: { words, phrases: [] }, text: words, vector: words },
            'hybrid',
            { statuses, types: filters.types },
            PACK_CANDIDATES,
          )
        : Promise.resolve([]),
      filters.includeRecent === false
        ? Promise.resolve([])
        : this.search.recentEvents(projectId, RECENT_EVENTS, {
            sessionId: session?.sessionId,
            since: since === undefined ? undefined : new Date(since),
            types: filters.eventTypes,
          }),
      this.sources.entities(
        projectId,
        signals,
        strategy.depthLimit,
        { statuses, since, entityTypes: filters.entityTypes, exclude },
        now,
      ),
    ]);
    // Hits that only share a word with the query ("symptoms of the common cold" finding a fix
    // note through `symptom`) may stand, but what lies around them is no answer to it: their
    // sessions' other items come only around hits that say more of the query, and the
    // project's salient entities only for a query with such a hit or naming an entity.
    const stems = contentStems(words);
    const anchoring = ranked.filter((r) => anchorsQuery(stems, wordsOf(r.hit)));
    if (anchoring.length === 0 && found.named.length === 0) found.entities = [];
    const candidates = await this.withLinkedItems(projectId, ranked, found, statuses, filters.types, {
      sessionsOf: anchoring,
      types: soughtTypes(body.query),
    });
    const pack = assembleContext({
      query: body.query,
      maxTokens: body.maxTokens,
      now,
      intent: signals.intent,
      strategy,
      keywords: signals.keywords,
      candidates: candidates.filter(
        (c) => !exclude.has(c.itemId) && (since === undefined || (c.updatedAt ?? now) >= since),
      ),
      recent: recent
        .filter((e) => !exclude.has(e.eventId) && saysSomething(e))
        .map((e) => ({ ...e, occurredAt: e.occurredAt.getTime() })),
      entities: found.entities,
      relations: found.relations,
      patterns: found.patterns,
      stack: session && packStack(session.stack),
      additionalContext: body.additionalContext,
    });
    return {
      content: pack.content,
      components: pack.components,
      tokenCount: pack.tokenCount,
      truncated: pack.truncated,
      strategy: pack.strategy,
      metadata: {
        query: body.query,
        intent: pack.intent,
        keywords: signals.keywords,
        itemsConsidered: candidates.length,
        eventsConsidered: recent.length,
        entitiesConsidered: found.entities.length,
        relationsConsidered: found.relations.length,
        patternsConsidered: found.patterns.length,
        chunksSearched: ranked.length,
        ...(session ? { taskFrames: session.stack.frames.length } : {}),
        assemblyTimeMs: Math.round((performance.now() - started) * 10) / 10,
      },
    };
  }

  /**
   * Search's hits, and the items that name the entities the query named: a hit naming them
   * is raised, an item search missed joins with a score by the share of them it names. Then
   * what `around` asks for: the other items of the sessions of the best of `sessionsOf`, and
   * items of these types.
   */
  private async withLinkedItems(
    projectId: string,
    ranked: RankedHit[],
    found: EntitySources,
    statuses: readonly ItemStatus[],
    types: SearchFilter['types'],
    around: { sessionsOf: readonly RankedHit[]; types: ItemType[] },
  ): Promise<PackCandidate[]> {
    const top = ranked[0]?.score ?? 0.5;
    const linked = await this.sources.linkedItems(projectId, found.linked, statuses, LINKED_ITEMS);
    const worth = (ids: number[]) => ids.reduce((sum, id) => sum + (found.linked.get(id) ?? 0), 0);
    const share = new Map(
      linked.map((l) => [l.itemId, Math.min(1, worth(l.entityIds) / Math.max(1, found.named.length))]),
    );
    const toCandidate = ({ hit, score }: { hit: SearchHit; score: number }): PackCandidate => ({
      itemId: hit.itemId,
      type: hit.type,
      title: hit.title,
      facts: hit.facts,
      rationale: hit.rationale,
      files: hit.files,
      status: hit.status,
      relevance: score + top * LINK_WEIGHT * (share.get(hit.itemId) ?? 0),
      updatedAt: hit.updatedAt.getTime(),
      salience: hit.importance === null ? null : hit.importance / 5,
    });
    const seen = new Set(ranked.map((r) => r.hit.itemId));
    const missing = linked.filter((l) => !seen.has(l.itemId)).map((l) => l.itemId);
    for (const id of missing) seen.add(id);
    // Around what matched: what else the sessions of the best hits concluded, and the kinds of
    // memory the question asks for by its shape. They rank below every hit (a share of the top).
    const sessionIds = [...new Set(around.sessionsOf.slice(0, NEIGHBOUR_SOURCES).map((r) => r.hit.sessionId))];
    const near = await this.search.around(
      projectId,
      { sessionIds, types: around.types },
      { statuses, types },
      AROUND_ITEMS,
    );
    const extra = near.filter((id) => !seen.has(id));
    const hydrated = await this.search.hydrate(projectId, [...missing, ...extra], '', { statuses, types });
    const linkedIds = new Set(missing);
    return [
      ...ranked,
      ...hydrated.map((hit) => ({ hit, score: linkedIds.has(hit.itemId) ? 0 : top * AROUND_WEIGHT })),
    ].map(toCandidate);
  }

  private async ranked(
    projectId: string,
    query: { fullText: FullTextQuery; text: string; vector: string },
    mode: SearchMode,
    filter: SearchFilter,
    limit: number,
  ): Promise<RankedHit[]> {
    const [fullText, vector] = await Promise.all([
      mode === 'vector' || !query.text.trim()
        ? Promise.resolve([])
        : this.search.fullText(projectId, query.fullText, filter, DEPTH),
      mode === 'fulltext' || !query.vector ? Promise.resolve([]) : this.vectorHits(projectId, query.vector, filter),
    ]);
    const matched = {
      fullText: fullText.filter((h) => h.coverage >= MATCH_FLOOR.fullText),
      vector: vector.filter((h) => h.score >= MATCH_FLOOR.vector),
    };
    const scoreOf = {
      fullText: new Map(matched.fullText.map((h) => [h.id, h.coverage])),
      vector: new Map(matched.vector.map((h) => [h.itemId, h.score])),
    };
    const fused = reciprocalRankFusion(
      { fullText: matched.fullText.map((h) => h.id), vector: matched.vector.map((h) => h.itemId) },
      RRF_K,
    );
    const sought = contentStems(query.vector);
    // Rows are read a page at a time, and filtered again as they are: the vector store's
    // statuses lag the items by a sync, and it knows nothing of excluded words. A row left
    // out makes room for the next one, so a full page comes back whenever there is one.
    const ranked: RankedHit[] = [];
    for (let next = 0; next < fused.length && ranked.length < limit;) {
      // A whole page each time: rows left out tend to come in runs (an excluded word's hits).
      const page = fused.slice(next, next + limit);
      next += page.length;
      const hits = await this.search.hydrate(
        projectId,
        page.map((f) => f.id),
        query.text,
        filter,
      );
      const byId = new Map(hits.map((h) => [h.itemId, h]));
      for (const f of page) {
        const hit = byId.get(f.id);
        // Found by its vector alone, an item must still say one of the query's words.
        const collision = f.ranks.fullText === undefined && hit && !sharesContentWord(sought, wordsOf(hit));
        if (hit && !collision && ranked.length < limit) {
          ranked.push({
            hit,
            // Both sources ranking it first give 2 / (k + 1): that is 1.
            score: (f.score * (RRF_K + 1)) / 2,
            ranks: { fullText: f.ranks.fullText ?? null, vector: f.ranks.vector ?? null },
            scores: { fullText: scoreOf.fullText.get(f.id) ?? null, vector: scoreOf.vector.get(f.id) ?? null },
          });
        }
      }
    }
    return ranked;
  }

  private async vectorHits(
    projectId: string,
    query: string,
    filter: SearchFilter,
  ): Promise<Array<{ itemId: string; score: number }>> {
    const { statuses, types } = filter;
    try {
      const vector = await this.embedder.embedQuery(query);
      return await this.store.search(projectId, vector, { limit: DEPTH, statuses, types });
    } catch (error) {
      // An embedding endpoint or vector store that is down leaves full text to answer alone.
      this.logger.warn({ err: (error as Error).message }, 'vector search failed; answering from full text only');
      return [];
    }
  }
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * A recent event worth a line of a pack: not harness text (`<local-command-stdout>See ya!`),
 * and not a bare acknowledgement ("Perfect!", "Done."), which says nothing of the work.
 */
function saysSomething(event: { type: string; content: string }): boolean {
  if (event.type !== 'prompt' && event.type !== 'response') return true;
  const text = humanText(event.content);
  return text.length > 0 && /[\p{L}\p{N}]{3,}(?:\W+[\p{L}\p{N}]+){2,}/u.test(text);
}

/** A session's task stack as the pack shows it: root goal, the path to the current frame, finished siblings. */
function packStack(stack: TaskStack): PackStack {
  const [root, ...path] = stack.path;
  return {
    root: { id: root!.id, goal: root!.goal },
    path: path.map((f) => ({ id: f.id, goal: f.goal, status: f.status, ...(f.result ? { result: f.result } : {}) })),
    done: stack.done.map((f) => ({ id: f.id, goal: f.goal, ...(f.result ? { result: f.result } : {}) })),
  };
}
